/**
 * End to end: WebAssembly tools in the compiled dist/moat -p against the
 * scripted fake model server. The bundled tools run precompiled from the
 * binary; third-party components dropped into .moat/tools/ mid-run (one in
 * C, one in JavaScript through componentize-js that fetches over wasi:http)
 * are found by the watcher, called by the model, and gone once deleted.
 * Run `bun run build` first (scripts/test.sh does).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, startFakeAnthropic, type FakeAnthropic, type RecordedRequest } from '../support/fake-anthropic.ts';
import { MOAT_BIN, MOAT_TEST_BIN, makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';
import { buildFetchUrl } from '../tools/wasm/fixtures/build-fetch-url.ts';
import { buildGreet } from '../tools/wasm/fixtures/build-greet.ts';
import { buildFixtures } from '../sandbox/fixtures/build-fixtures.ts';

interface Body {
  messages: { role: string; content: { type: string; text?: string; content?: unknown; is_error?: boolean; tool_use_id?: string }[] }[];
  tools: { name: string; description: string }[];
}

let server: FakeAnthropic;
let sb: Sandbox;
/** Called with each request's index as it arrives (before it is answered). */
let onRequest: (i: number) => void = () => undefined;
let seen = 0;
let greet: Uint8Array;
let fetchUrl: Uint8Array;
/** The loopback site fetch_url is granted (the only address these tests fetch from). */
let site: ReturnType<typeof Bun.serve>;
const sitePaths: string[] = [];

beforeAll(async () => {
  if (!existsSync(MOAT_BIN)) throw new Error('dist/moat is missing: run `bun run build` first');
  // componentize-js takes ~15 s of CPU the first time on a machine, then it is cached.
  [greet, fetchUrl] = await Promise.all([buildGreet(), buildFetchUrl()]);
  server = await startFakeAnthropic({ onRequest: (_r: RecordedRequest) => onRequest(seen++) });
  site = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      sitePaths.push(new URL(req.url).pathname);
      return new Response('hello from loopback', { status: 200 });
    },
  });
}, 120_000);
afterAll(async () => {
  await server.close();
  await site.stop(true);
});
beforeEach(() => {
  sb = makeSandbox(server.url);
  onRequest = () => undefined;
  seen = 0;
  expect(server.remaining()).toBe(0);
  server.requests.length = 0;
});

const body = (i: number) => server.requests[i]!.body as Body;
const toolNames = (i: number) => body(i).tools.map((t) => t.name);
const results = (i: number) =>
  body(i)
    .messages.at(-1)!
    .content.filter((c) => c.type === 'tool_result')
    .map((c) => ({ text: typeof c.content === 'string' ? c.content : JSON.stringify(c.content), isError: c.is_error === true }));
const moat = (args: string[]) => runMoat(args, { cwd: sb.cwd, env: sb.env });

describe('WebAssembly tools in moat -p', () => {
  test('bundled tools: found with tool_search, then called by the model; no transpile at run time', async () => {
    server.script(
      reply().toolUse('ToolSearch', { query: 'select:calculate,base64_encode' }).stop('tool_use'),
      reply().toolUse('calculate', { expression: '6*7' }).toolUse('base64_encode', { text: 'moat' }).stop('tool_use'),
      reply().text('42, bW9hdA=='),
    );
    const r = await moat(['-p', 'compute']);
    expect(r).toEqual({ code: 0, stdout: '42, bW9hdA==\n', stderr: '' });
    // More than 20 tools: the core ones plus tool_search, which names what it can load.
    expect(toolNames(0)).toContain('ToolSearch');
    expect(toolNames(0)).toContain('WebFetch');
    expect(toolNames(0)).not.toContain('calculate');
    expect(body(0).tools.find((t) => t.name === 'ToolSearch')!.description).toContain('calculate, current_time');
    expect(results(1)).toEqual([{ text: expect.stringContaining('Found 2 tools') as unknown as string, isError: false }]);
    expect(toolNames(1)).toEqual([...toolNames(0), 'base64_encode', 'calculate']);
    expect(results(2)).toEqual([
      { text: '[{"type":"text","text":"42"}]', isError: false },
      { text: '[{"type":"text","text":"bW9hdA=="}]', isError: false },
    ]);
    // The precompiled entries were unpacked into the cache: no transpile, one folder per component used.
    const cache = join(sb.home, '.cache', 'moat', 'components');
    expect(readdirSync(cache).filter((n) => !n.includes('.tmp')).length).toBe(2);
  }, 60_000);

  test('any text reaches a bundled tool whole: empty, U+0000, a lone surrogate, 900 KB (digests checked against node:crypto)', async () => {
    const texts = ['', 'a\u0000b', '\ud800x', 'y'.repeat(900_000), 'z'.repeat(70_000)];
    let r = reply().toolUse('ToolSearch', { query: 'select:hash_sha256' }).stop('tool_use');
    server.script(r);
    r = reply();
    texts.forEach((text, i) => (r = r.toolUse('hash_sha256', { text }, { id: `toolu_h${i}` })));
    server.script(r.stop('tool_use'), reply().text('hashed'));
    const run = await moat(['-p', 'hash']);
    expect(run).toMatchObject({ code: 0, stdout: 'hashed\n' });
    // Buffer.from writes a lone surrogate as U+FFFD, as any UTF-8 encoder must.
    const want = texts.map((t) => ({ text: `[{"type":"text","text":"${createHash('sha256').update(Buffer.from(t, 'utf8')).digest('hex')}"}]`, isError: false }));
    expect(results(2)).toEqual(want);
  }, 60_000);

  test('a limit hit comes back as an error result with the sandbox message', async () => {
    mkdirSync(join(sb.cwd, '.moat'), { recursive: true });
    writeFileSync(join(sb.cwd, '.moat', 'config.toml'), '[tools.calculate]\nfuel = 1000\n');
    server.script(reply().toolUse('ToolSearch', { query: 'select:calculate' }).stop('tool_use'), reply().toolUse('calculate', { expression: '1+1' }).stop('tool_use'), reply().text('no'));
    const r = await moat(['-p', 'compute']);
    expect(r.code).toBe(0);
    expect(results(2)).toEqual([{ text: '[{"type":"text","text":"calculate was stopped: fuel exhausted after 1,000 units. Try a smaller input."}]', isError: true }]);
  }, 60_000);

  test('a C component dropped into .moat/tools mid-run is found by the watcher, called, and gone once removed', async () => {
    const tools = join(sb.cwd, '.moat', 'tools');
    onRequest = (i) => {
      if (i === 1) {
        mkdirSync(tools, { recursive: true });
        writeFileSync(join(tools, 'greet.wasm'), greet);
      }
      if (i === 4) rmSync(join(tools, 'greet.wasm'));
    };
    server.script(
      reply().toolUse('LS', {}).stop('tool_use'),
      // The component arrives while this answer streams; the watcher registers it before the next turn.
      reply().wait(1500).toolUse('LS', {}).stop('tool_use'),
      reply().toolUse('ToolSearch', { query: 'repeat text capitals' }).stop('tool_use'),
      reply().toolUse('greet', { text: 'hello', upper: true }).stop('tool_use'),
      reply().wait(1500).toolUse('LS', {}).stop('tool_use'),
      reply().text('done'),
    );
    const r = await moat(['-p', 'greet']);
    expect(r).toEqual({ code: 0, stdout: 'done\n', stderr: '' });
    expect(body(1).tools.find((t) => t.name === 'ToolSearch')!.description).not.toContain('greet');
    expect(body(2).tools.find((t) => t.name === 'ToolSearch')!.description).toContain('greet');
    expect(results(3)[0]!.text).toContain('- greet: Repeat a text, optionally in capitals.');
    expect(toolNames(3)).toContain('greet');
    expect(results(4)).toEqual([{ text: '[{"type":"text","text":"HELLO"}]', isError: false }]);
    expect(toolNames(5)).not.toContain('greet');
  }, 60_000);

  test('a JavaScript component (componentize-js) fetching over wasi:http: dropped in, granted one host, called, refused elsewhere, removed', async () => {
    const tools = join(sb.cwd, '.moat', 'tools');
    // Plain http must be spelled out: a pattern without a scheme means https only.
    const allowed = `http://127.0.0.1:${site.port}`;
    onRequest = (i) => {
      if (i === 1) {
        mkdirSync(tools, { recursive: true });
        // The manifest first: the watcher registers the component with its grant.
        writeFileSync(join(tools, 'fetch_url.toml'), `[network]\nallow = ["${allowed}"]\n`);
        writeFileSync(join(tools, 'fetch_url.wasm'), fetchUrl);
      }
      if (i === 4) rmSync(join(tools, 'fetch_url.wasm'));
    };
    sitePaths.length = 0;
    server.script(
      reply().toolUse('LS', {}).stop('tool_use'),
      // A 14 MB component: transpiled and asked for its --help (~2.5 s cold on an idle 2-core machine) while this answer streams.
      reply().wait(8000).toolUse('LS', {}).stop('tool_use'),
      reply().toolUse('ToolSearch', { query: 'select:fetch_url' }).stop('tool_use'),
      reply()
        .toolUse('fetch_url', { url: `${allowed}/page` })
        // Same server, but a host name the manifest does not grant: refused before any connection.
        .toolUse('fetch_url', { url: `http://localhost:${site.port}/secret` })
        .stop('tool_use'),
      reply().wait(1500).toolUse('LS', {}).stop('tool_use'),
      reply().text('done'),
    );
    const r = await runMoat(['-p', 'fetch', '--allowedTools', 'fetch_url'], {
      cwd: sb.cwd,
      env: { ...sb.env, MOAT_TEST_ALLOW_PRIVATE_NETWORK: '1' },
      bin: MOAT_TEST_BIN,
    });
    expect(r).toEqual({ code: 0, stdout: 'done\n', stderr: '' });
    expect(body(1).tools.find((t) => t.name === 'ToolSearch')!.description).not.toContain('fetch_url');
    expect(body(2).tools.find((t) => t.name === 'ToolSearch')!.description).toContain('fetch_url');
    expect(toolNames(3)).toContain('fetch_url');
    const [ok, refused] = results(4);
    expect(ok).toEqual({ text: '[{"type":"text","text":"200 hello from loopback"}]', isError: false });
    expect(refused!.isError).toBe(true);
    expect(refused!.text).toContain(`moat: network request refused: http://localhost:${site.port} is not in the network allowlist (allowed: ${allowed})`);
    expect(sitePaths).toEqual(['/page']);
    expect(toolNames(5)).not.toContain('fetch_url');
  }, 120_000);

  test('dist/moat ignores the test switch: a manifest cannot reach loopback, the policy refuses the address', async () => {
    const tools = join(sb.cwd, '.moat', 'tools');
    mkdirSync(tools, { recursive: true });
    writeFileSync(join(tools, 'fetch_url.toml'), `[network]\nallow = ["http://127.0.0.1:${site.port}"]\n`);
    writeFileSync(join(tools, 'fetch_url.wasm'), fetchUrl);
    sitePaths.length = 0;
    server.script(
      reply().toolUse('ToolSearch', { query: 'select:fetch_url' }).stop('tool_use'),
      reply().toolUse('fetch_url', { url: `http://127.0.0.1:${site.port}/page` }).stop('tool_use'),
      reply().text('done'),
    );
    const r = await runMoat(['-p', 'fetch', '--allowedTools', 'fetch_url'], { cwd: sb.cwd, env: { ...sb.env, MOAT_TEST_ALLOW_PRIVATE_NETWORK: '1' } });
    expect(r).toEqual({ code: 0, stdout: 'done\n', stderr: '' });
    const [refused] = results(2);
    expect(refused!.isError).toBe(true);
    expect(refused!.text).toContain(`moat: network request refused: 127.0.0.1 is a loopback address; only public addresses are reachable`);
    expect(sitePaths).toEqual([]);
  }, 120_000);

  test('a refused component costs one warning line naming the interface; the run goes on', async () => {
    const tools = join(sb.cwd, '.moat', 'tools');
    mkdirSync(tools, { recursive: true });
    writeFileSync(join(tools, 'netcat.wasm'), (await buildFixtures()).socketsImporter);
    server.script(reply().text('ok'));
    const r = await moat(['-p', 'hi']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('ok\n');
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^moat: netcat refused: it imports wasi:sockets\/tcp@0\.2\.3: raw sockets are not provided/) as unknown as string]);
  }, 60_000);
});
