/**
 * Serves a scripted fake Anthropic API from a JSON file, for manual runs and
 * benchmarks. The first stdout line is the base URL (without /v1).
 *
 *   bun test/support/fake-anthropic-main.ts script.json [--port 8123] [--repeat] [--verbose]
 *
 * The script is an array of responses as the builders in
 * fake-anthropic-script.ts produce them (JSON.stringify works on builders).
 */
import { parseArgs } from 'node:util';
import { parseScript, startFakeAnthropic, type RecordedRequest } from './fake-anthropic.ts';

function describeRequest(r: RecordedRequest): string {
  const body = typeof r.body === 'object' && r.body !== null ? (r.body as Record<string, unknown>) : {};
  const model = typeof body['model'] === 'string' ? ` model=${body['model']}` : '';
  const messages = Array.isArray(body['messages']) ? ` messages=${body['messages'].length}` : '';
  const tools = Array.isArray(body['tools']) ? ` tools=${body['tools'].length}` : '';
  return `${r.method} ${r.path}${model}${messages}${tools}`;
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: {
      port: { type: 'string' },
      repeat: { type: 'boolean', default: false },
      verbose: { type: 'boolean', default: false },
    },
    allowPositionals: true,
  });
  const file = positionals[0];
  if (file === undefined) throw new Error('usage: fake-anthropic-main.ts <script.json> [--port N] [--repeat] [--verbose]');
  const script = parseScript(JSON.parse(await Bun.file(file).text()) as unknown);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0) throw new Error(`--port must be a port number, got ${values.port}`);
  const server = await startFakeAnthropic({
    port,
    repeat: values.repeat,
    // One line per request on stderr, so stdout stays the URL alone.
    onRequest: values.verbose ? (r) => process.stderr.write(`${describeRequest(r)}\n`) : undefined,
  });
  server.script(...script);
  process.stdout.write(`${server.url}\n`);
  const stop = (): void => {
    void server.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e: unknown) => {
  process.stderr.write(`fake-anthropic: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
