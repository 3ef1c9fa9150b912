/**
 * End to end: `moat mcp add --allow-write/--allow-network/--allow-loopback`
 * with real servers from npm in the OS sandbox — server-filesystem given the
 * project folder, server-memory with its file in the project — and the grants
 * a project's `.mcp.json` server gets from the user's config.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { sandboxSupport } from '../../src/sandbox/index.ts';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { MOAT_BIN, makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';

const MODULES = resolve(import.meta.dir, '../../node_modules/@modelcontextprotocol');
const FILESYSTEM_JS = join(MODULES, 'server-filesystem/dist/index.js');
const MEMORY_JS = join(MODULES, 'server-memory/dist/index.js');
const sandboxed = sandboxSupport(process.env).available;

let server: FakeAnthropic;
let sb: Sandbox;

beforeAll(async () => {
  if (!existsSync(MOAT_BIN)) throw new Error('dist/moat is missing: run `bun run build` first');
  server = await startFakeAnthropic();
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
