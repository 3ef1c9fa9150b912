/**
 * Serves a scripted fake Anthropic API from a JSON file, for manual runs and
 * benchmarks. The first stdout line is the base URL (without /v1).
 *
 *   bun test/support/fake-anthropic-main.ts script.json [--port 8123] [--repeat]
 *
 * The script is an array of responses as the builders in
 * fake-anthropic-script.ts produce them (JSON.stringify works on builders).
 */
import { parseArgs } from 'node:util';
import { parseScript, startFakeAnthropic } from './fake-anthropic.ts';

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: { port: { type: 'string' }, repeat: { type: 'boolean', default: false } },
    allowPositionals: true,
  });
  const file = positionals[0];
  if (file === undefined) throw new Error('usage: fake-anthropic-main.ts <script.json> [--port N] [--repeat]');
  const script = parseScript(JSON.parse(await Bun.file(file).text()) as unknown);
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0) throw new Error(`--port must be a port number, got ${values.port}`);
  const server = await startFakeAnthropic({ port, repeat: values.repeat });
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
