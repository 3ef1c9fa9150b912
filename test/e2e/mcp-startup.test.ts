/**
 * End to end: MCP servers at the start of a `-p` run, with the compiled
 * dist/moat against a fast scripted model — the first run waits for a new
 * server so its tools are in the first request, a later run names them from
 * the tool-list cache at once and a call waits for the server, a run that ends
 * while a server starts ends quietly and fast, and a server that dies at start
 * says why.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { MOAT_BIN, makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';

const EVERYTHING_JS = resolve(import.meta.dir, '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let server: FakeAnthropic;
let sb: Sandbox;
/** When the current run's first model request arrived. */
let firstRequestAt: number | undefined;

beforeAll(async () => {
  if (!existsSync(MOAT_BIN)) throw new Error('dist/moat is missing: run `bun run build` first');
  server = await startFakeAnthropic({ onRequest: () => (firstRequestAt ??= performance.now()) });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  sb = makeSandbox(server.url);
  server.requests.length = 0;
});
afterEach(() => {
  rmSync(dirname(sb.cwd), { recursive: true, force: true });
});

const moat = (args: string[]) => runMoat(args, { cwd: sb.cwd, env: sb.env });
type Body = { tools: { name: string; description?: string }[]; messages: { role: string; content: { type: string; content?: unknown }[] }[] };

/**
 * server-everything behind a start-up delay read from a file at each start
 * (the same command and arguments every run, so the same cache entry).
 */
function slowEverything(): { config: string; delay(ms: number): void } {
  // In the working folder: a sandboxed server sees its own private /tmp, where the test's folder above it is not.
  const delayFile = join(sb.cwd, 'delay');
  const script = join(sb.cwd, 'slow-everything.mjs');
  writeFileSync(delayFile, '0');
  writeFileSync(
    script,
    `import { readFileSync } from 'node:fs';\nawait new Promise((r) => setTimeout(r, Number(readFileSync(${JSON.stringify(delayFile)}, 'utf8'))));\nawait import(${JSON.stringify(EVERYTHING_JS)});\n`,
  );
  return {
    config: JSON.stringify({ mcpServers: { everything: { command: 'node', args: [script, 'stdio'] } } }),
    delay: (ms) => writeFileSync(delayFile, String(ms)),
  };
}

/** Every tool name the request offers, directly or named in ToolSearch's description. */
function namedTools(body: Body): string {
  return body.tools.map((t) => `${t.name} ${t.description ?? ''}`).join('\n');
}

describe('MCP servers at the start of a -p run', () => {
  test('first run waits for a new server; a later run names its tools from the cache at once and a call waits for the server', async () => {
    const slow = slowEverything();
    server.script(reply().text('First.'));
    const first = await moat(['-p', 'hi', '--mcp-config', slow.config]);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(namedTools(server.requests[0]?.body as Body)).toContain('mcp__everything__echo');
    expect(readdirSync(join(sb.home, '.cache', 'moat', 'mcp-tools'))).toHaveLength(1);

    // The server now takes 1.5 s to start: the first request does not wait for it, yet names its tools, and the call waits.
    slow.delay(1500);
    server.requests.length = 0;
    firstRequestAt = undefined;
    server.script(
      reply().toolUse('ToolSearch', { query: 'select:mcp__everything__echo' }).stop('tool_use'),
      reply().toolUse('mcp__everything__echo', { message: 'early call' }).stop('tool_use'),
      reply().text('Done.'),
    );
    const started = performance.now();
    const second = await moat(['-p', 'echo', '--mcp-config', slow.config, '--allowedTools', 'mcp__everything', '--output-format', 'stream-json', '--verbose']);
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(namedTools(server.requests[0]?.body as Body)).toContain('mcp__everything__echo');
    expect((firstRequestAt ?? Number.POSITIVE_INFINITY) - started).toBeLessThan(1500);
    const last = server.requests.at(-1)?.body as Body;
    expect(JSON.stringify(last.messages.at(-1)?.content)).toContain('Echo: early call');
  }, 60_000);

  test('a run that ends while a server is still starting prints nothing about it and does not wait for it', async () => {
    const slow = slowEverything();
    server.script(reply().text('Warm.'));
    expect((await moat(['-p', 'hi', '--mcp-config', slow.config])).code).toBe(0);
    slow.delay(10_000);
    // The same run without the server, just before: the floor on this machine at this moment.
    server.script(reply().text('Quick.'));
    let started = performance.now();
    expect((await moat(['-p', 'hi'])).code).toBe(0);
    const floor = performance.now() - started;
    server.script(reply().text('Quick.'));
    started = performance.now();
    const r = await moat(['-p', 'hi', '--mcp-config', slow.config]);
    const took = performance.now() - started;
    expect(r).toEqual({ code: 0, stdout: 'Quick.\n', stderr: '' });
    // Nowhere near the server's 10 s start, nor the SDK's own 2 s wait for its exit.
    expect(took - floor).toBeLessThan(1000);
  }, 60_000);

  test('a server that exits at start is reported with its own error line, not Node\'s stack trailer', async () => {
    const script = join(sb.cwd, 'needs-token.mjs');
    writeFileSync(script, "if (!process.env.GITHUB_TOKEN) throw new Error('GITHUB_TOKEN is not set');\n");
    const config = JSON.stringify({ mcpServers: { gh: { command: 'node', args: [script] } } });
    server.script(reply().text('Hi.'));
    const r = await moat(['-p', 'hi', '--mcp-config', config]);
    expect(r.code).toBe(0);
    expect(r.stderr.trim()).toBe('moat: MCP server gh failed: the server exited while starting: Error: GITHUB_TOKEN is not set');
  }, 30_000);
});
