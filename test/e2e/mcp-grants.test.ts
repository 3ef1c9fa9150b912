/**
 * End to end: `moat mcp add --allow-write/--allow-network/--allow-loopback`
 * with real servers from npm in the OS sandbox — server-filesystem given the
 * project folder, server-memory with its file in the project — and the grants
 * a project's `.mcp.json` server gets from the user's config.
 */
import { describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sandboxSupport } from '../../src/sandbox/index.ts';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { runMoat, type Sandbox } from '../support/run-moat.ts';

const MODULES = resolve(import.meta.dir, '../../node_modules/@modelcontextprotocol');
const FILESYSTEM_JS = join(MODULES, 'server-filesystem/dist/index.js');
const MEMORY_JS = join(MODULES, 'server-memory/dist/index.js');
const sandboxed = sandboxSupport(process.env).available;

let server: FakeAnthropic;
let sb: Sandbox;

serveFakeAnthropic((s) => (server = s), (s) => (sb = s));

const moat = (args: string[]) => runMoat(args, { cwd: sb.cwd, env: sb.env });
type Body = { messages: { role: string; content: { type: string; content?: unknown }[] }[] };
const lastResult = () => JSON.stringify((server.requests.at(-1)?.body as Body).messages.at(-1)?.content);

/** The model calls `tool` with `input` at once (its list is in the first request: the first run waits for a new server). */
function callAtOnce(tool: string, input: Record<string, unknown>): void {
  server.script(reply().toolUse('ToolSearch', { query: `select:${tool}` }).stop('tool_use'), reply().toolUse(tool, input).stop('tool_use'), reply().text('Done.'));
}

describe.skipIf(!sandboxed)('grants for MCP servers in the OS sandbox', () => {
  test('server-filesystem writes the project folder once granted; without the grant the write is refused', async () => {
    const add = await moat(['mcp', 'add', 'fs', '--allow-write', '.', '--', 'node', FILESYSTEM_JS, sb.cwd]);
    expect(add).toMatchObject({ code: 0, stderr: '' });
    const get = await moat(['mcp', 'get', 'fs']);
    expect(get.stdout).toContain(`writes: its temp folder, ${sb.cwd}; network: none`);
    callAtOnce('mcp__fs__write_file', { path: join(sb.cwd, 'note.txt'), content: 'granted' });
    const r = await moat(['-p', 'write it', '--allowedTools', 'mcp__fs']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(join(sb.cwd, 'note.txt'), 'utf8')).toBe('granted');

    // The same server without the grant: the file is not written.
    expect((await moat(['mcp', 'add', 'ro', '--', 'node', FILESYSTEM_JS, sb.cwd])).code).toBe(0);
    callAtOnce('mcp__ro__write_file', { path: join(sb.cwd, 'refused.txt'), content: 'no' });
    const refused = await moat(['-p', 'write it', '--allowedTools', 'mcp__ro']);
    expect(refused.code).toBe(0);
    expect(existsSync(join(sb.cwd, 'refused.txt'))).toBe(false);
    expect(lastResult()).toMatch(/read-only file system|EROFS/i);
  }, 90_000);

  test('server-memory keeps its file in the project once granted', async () => {
    const file = join(sb.cwd, 'memory.jsonl');
    const add = await moat(['mcp', 'add', 'memory', '--allow-write', sb.cwd, '-e', `MEMORY_FILE_PATH=${file}`, '--', 'node', MEMORY_JS]);
    expect(add).toMatchObject({ code: 0, stderr: '' });
    callAtOnce('mcp__memory__create_entities', { entities: [{ name: 'moat', entityType: 'agent', observations: ['runs servers in a sandbox'] }] });
    const r = await moat(['-p', 'remember', '--allowedTools', 'mcp__memory']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(file, 'utf8')).toContain('runs servers in a sandbox');
  }, 90_000);

  test('flags that cannot apply are usage errors', async () => {
    expect(await moat(['mcp', 'add', '--transport', 'http', 'r', 'http://127.0.0.1:9/mcp', '--allow-write', '.'])).toMatchObject({
      code: 2,
      stderr: 'moat: --allow-write, --allow-network and --allow-loopback are grants for a local (stdio) server, which runs in the OS sandbox\n',
    });
    expect(await moat(['mcp', 'add', 'p', '--allow-loopback', '--', 'node', 'x.js'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--allow-loopback lets the hosts of --allow-network be loopback addresses') });
  });

  test('a project server added with grants: .mcp.json holds the server, the user config its grants', async () => {
    const add = await moat(['mcp', 'add', 'proj', '--scope', 'project', '--allow-write', '.', '--allow-network', '127.0.0.1', '--allow-loopback', '--', 'node', FILESYSTEM_JS, sb.cwd]);
    expect(add.code).toBe(0);
    const mcpJson = readFileSync(join(sb.cwd, '.mcp.json'), 'utf8');
    expect(mcpJson).not.toContain('allow');
    const user = readFileSync(join(sb.home, '.config', 'moat', 'config.toml'), 'utf8');
    expect(user).toContain('[mcp_servers.proj.sandbox]');
    expect((await moat(['mcp', 'get', 'proj'])).stdout).toContain(`writes: its temp folder, ${sb.cwd}; network: 127.0.0.1 (loopback allowed)`);
  }, 30_000);
});

/** A package whose bin is a tiny stdio MCP server (raw JSON-RPC, no dependencies): what `npx -y <package>` fetches. */
const STUB_SERVER = `#!/usr/bin/env node
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
let buf = '';
process.stdin.on('data', (c) => {
  buf += c;
  let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    if (!line.trim()) continue;
    const m = JSON.parse(line);
    if (m.method === 'initialize') send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'stub', version: '1.0.0' } } });
    else if (m.method === 'tools/list') send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'hello', description: 'Says hello', inputSchema: { type: 'object', properties: {} } }] } });
    else if (m.method === 'tools/call') send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'hello from the registry package' }] } });
    else if (m.id !== undefined) send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
  }
});
process.stdin.on('end', () => process.exit(0));
`;

/** A package registry on loopback serving one package, as registry.npmjs.org would (packument and tarball). */
async function registryStub(root: string): Promise<{ url: string; hits: string[]; stop(): Promise<void> }> {
  const pkgDir = join(root, 'pkg', 'package');
  mkdirSync(pkgDir, { recursive: true });
  writeFileSync(join(pkgDir, 'package.json'), JSON.stringify({ name: 'mcp-hello-stub', version: '1.0.0', bin: { 'mcp-hello-stub': 'index.js' } }));
  writeFileSync(join(pkgDir, 'index.js'), STUB_SERVER, { mode: 0o755 });
  const tgz = join(root, 'pkg', 'stub.tgz');
  expect(Bun.spawnSync(['tar', 'czf', tgz, '-C', join(root, 'pkg'), 'package']).exitCode).toBe(0);
  const bytes = readFileSync(tgz);
  const hits: string[] = [];
  let base = '';
  const srv = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req): Response {
      const path = new URL(req.url).pathname;
      hits.push(path);
      if (path === '/mcp-hello-stub') {
        return Response.json({
          name: 'mcp-hello-stub',
          'dist-tags': { latest: '1.0.0' },
          versions: {
            '1.0.0': {
              name: 'mcp-hello-stub',
              version: '1.0.0',
              bin: { 'mcp-hello-stub': 'index.js' },
              dist: { tarball: `${base}/mcp-hello-stub/-/mcp-hello-stub-1.0.0.tgz`, shasum: createHash('sha1').update(bytes).digest('hex'), integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}` },
            },
          },
        });
      }
      if (path === '/mcp-hello-stub/-/mcp-hello-stub-1.0.0.tgz') return new Response(bytes);
      return new Response('{}', { status: 404 });
    },
  });
  base = `http://127.0.0.1:${srv.port}`;
  return { url: `${base}/`, hits, stop: () => srv.stop(true) };
}

describe.skipIf(!sandboxed || Bun.which('npx') === null)('npx -y <package> in the sandbox, against a registry stub on loopback', () => {
  test('refused without grants (the start-up failure says so); works once the registry host, loopback and the npm cache are granted', async () => {
    const registry = await registryStub(dirname(sb.cwd));
    try {
      const env = `npm_config_registry=${registry.url}`;
      expect((await moat(['mcp', 'add', 'bare', '-e', env, '--', 'npx', '-y', 'mcp-hello-stub'])).code).toBe(0);
      server.script(reply().text('Hi.'));
      const bare = await moat(['-p', 'hi']);
      expect(bare.code).toBe(0);
      // No network in the sandbox: npm never reaches the registry. The proxy refused it by name, and says which line would
      // allow it; the failure says what the server may do and how to grant more.
      const host = new URL(registry.url).host;
      const [refusal, failure, ...rest] = bare.stderr.split('\n');
      expect(refusal).toBe(
        `moat: MCP server bare ran into the OS sandbox: connection to ${host} refused (not in its network_allow); to allow it, in ~/.config/moat/config.toml: [mcp_servers.bare.sandbox] network_allow = ["${host}"], allow_loopback = true (moat mcp add … --allow-network ${host} --allow-loopback)`,
      );
      expect(failure).toMatch(/^moat: MCP server bare failed: (did not finish starting|the server exited while starting).* \(in the OS sandbox — network: none; writes: its temp folder; if it needs more, grant it in the user config: \[mcp_servers\.bare\.sandbox\] network_allow = \["<host>"\], allow_write = \["<path>"\]\)$/);
      expect(rest).toEqual(['']);
      expect(registry.hits).toEqual([]);

      const npmCache = join(sb.home, '.npm');
      mkdirSync(npmCache, { recursive: true });
      expect((await moat(['mcp', 'remove', 'bare'])).code).toBe(0);
      // A host without a port means its scheme's default ports: a registry on another port is named with it.
      const add = await moat(['mcp', 'add', 'hello', '-e', env, '--allow-network', new URL(registry.url).host, '--allow-loopback', '--allow-write', npmCache, '--', 'npx', '-y', 'mcp-hello-stub']);
      expect(add).toMatchObject({ code: 0, stderr: '' });
      callAtOnce('mcp__hello__hello', {});
      // npx installing under a loaded machine can take more than the default 10 s start-up wait.
      const r = await runMoat(['-p', 'say hello', '--allowedTools', 'mcp__hello'], { cwd: sb.cwd, env: { ...sb.env, MCP_TIMEOUT: '60000' } });
      expect({ ...r, hits: registry.hits }).toMatchObject({ code: 0, stderr: '' });
      expect(registry.hits).toContain('/mcp-hello-stub/-/mcp-hello-stub-1.0.0.tgz');
      expect(lastResult()).toContain('hello from the registry package');
    } finally {
      await registry.stop();
    }
  }, 120_000);
});
