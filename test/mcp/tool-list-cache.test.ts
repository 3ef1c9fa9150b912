/**
 * The tool-list cache and what the manager does with it: what makes two
 * configs one cache entry, a damaged file read as no list, the tools of a
 * server still connecting offered from its last run, a call to one waiting
 * for the server, and the server's own error line when it dies at start.
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheKey, DEFAULT_SERVER_SANDBOX, fileToolListCache, McpManager, type McpServerConfig } from '../../src/mcp/index.ts';
import { stderrReason } from '../../src/mcp/connection.ts';
import { tempDir } from '../support/temp.ts';
import { everything, httpServer, stdioServer, toolContext } from './support.ts';

const TOOL = { name: 'echo', description: 'Echoes', inputSchema: { type: 'object' as const, properties: { message: { type: 'string' } } } };

function managerWith(servers: McpServerConfig[], cacheDir: string, failures: string[] = []): McpManager {
  return new McpManager(servers, {
    launch: { cwd: process.cwd(), env: process.env, sandbox: DEFAULT_SERVER_SANDBOX },
    roots: [process.cwd()],
    clientVersion: '0.0.0-test',
    onFailure: (name, error) => failures.push(`${name}: ${error}`),
    toolCache: fileToolListCache(cacheDir),
  });
}

describe('cacheKey', () => {
  test('command, arguments, working folder and environment names make the key; environment values do not', () => {
    const a = stdioServer('a', 'node', ['s.js'], { env: { TOKEN: 'one' } });
    expect(cacheKey(stdioServer('b', 'node', ['s.js'], { env: { TOKEN: 'two' } }))).toBe(cacheKey(a));
    expect(cacheKey(stdioServer('a', 'node', ['t.js'], { env: { TOKEN: 'one' } }))).not.toBe(cacheKey(a));
    expect(cacheKey(stdioServer('a', 'node', ['s.js'], { env: { TOKEN: 'one', OTHER: 'x' } }))).not.toBe(cacheKey(a));
    expect(cacheKey(stdioServer('a', 'node', ['s.js'], { env: { TOKEN: 'one' }, cwd: '/srv' }))).not.toBe(cacheKey(a));
    expect(cacheKey(httpServer('h', 'http://127.0.0.1:1/mcp', { headers: { 'X-Api-Key': 'a' } }))).toBe(cacheKey(httpServer('h', 'http://127.0.0.1:1/mcp', { headers: { 'X-Api-Key': 'b' } })));
  });
});

describe('fileToolListCache', () => {
  test('a list saved is read back with its server version; one file per server', () => {
    const dir = tempDir('moat-mcp-cache-');
    const cache = fileToolListCache(dir);
    const s = stdioServer('a', 'node', ['s.js']);
    expect(cache.get(s)).toBeUndefined();
    cache.put(s, '1.2.3', [TOOL]);
    cache.put(stdioServer('b', 'node', ['other.js']), '1', []);
    expect(fileToolListCache(dir).get(s)).toEqual({ serverVersion: '1.2.3', tools: [TOOL] });
    expect(readdirSync(join(dir, 'mcp-tools'))).toHaveLength(2);
  });

  test('a damaged file, a file in another shape or for another key is no list', () => {
    const dir = tempDir('moat-mcp-cache-');
    const s = stdioServer('a', 'node', ['s.js']);
    fileToolListCache(dir).put(s, '1', [TOOL]);
    const file = join(dir, 'mcp-tools', readdirSync(join(dir, 'mcp-tools'))[0] as string);
    for (const text of ['{not json', JSON.stringify({ key: cacheKey(s), serverVersion: '1', tools: [{ name: 'x' }] }), JSON.stringify({ key: 'another', serverVersion: '1', tools: [TOOL] })]) {
      writeFileSync(file, text);
      expect(fileToolListCache(dir).get(s)).toBeUndefined();
    }
  });
});

describe('a server with a list from its last run', () => {
  test('its tools are offered before it starts; a call waits for it; the live list is saved', async () => {
    const dir = tempDir('moat-mcp-cache-');
    const first = managerWith([everything()], dir);
    first.startAll();
    await first.settled();
    const live = first.tools().map((t) => t.name);
    expect(live).toContain('mcp__everything__echo');
    await first.close();

    const second = managerWith([everything()], dir);
    // Nothing started yet: the tools come from the cache, in the same order.
    expect(second.status()[0]?.state.status).toBe('connecting');
    expect(second.tools().map((t) => t.name)).toEqual(live.filter((n) => n.startsWith('mcp__everything__')));
    const echo = second.tools().find((t) => t.name === 'mcp__everything__echo');
    try {
      const result = await echo?.execute({ message: 'before connecting' }, toolContext());
      expect(JSON.stringify(result)).toContain('Echo: before connecting');
      expect(second.status()[0]?.state.status).toBe('connected');
      expect(second.status()[0]?.serverInfo?.name).toBeString();
    } finally {
      await second.close();
    }
  }, 60_000);

  test('a server that fails to start: the waiting call gets its reason', async () => {
    const dir = tempDir('moat-mcp-cache-');
    const broken = stdioServer('gone', process.execPath, ['-e', "console.error('API_TOKEN is not set'); process.exit(1)"]);
    fileToolListCache(dir).put(broken, '1', [TOOL]);
    const failures: string[] = [];
    const m = managerWith([broken], dir, failures);
    try {
      const tool = m.tools().find((t) => t.name === 'mcp__gone__echo');
      expect(tool).toBeDefined();
      await expect(tool?.execute({ message: 'x' }, toolContext()) ?? Promise.resolve()).rejects.toThrow('the server exited while starting: API_TOKEN is not set');
      expect(failures).toEqual(['gone: the server exited while starting: API_TOKEN is not set']);
      // Failed: its cached tools are no longer offered.
      expect(m.tools()).toEqual([]);
    } finally {
      await m.close();
    }
  }, 30_000);

  test('a call whose turn is interrupted stops waiting', async () => {
    const dir = tempDir('moat-mcp-cache-');
    const slow = stdioServer('slow', process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
    fileToolListCache(dir).put(slow, '1', [TOOL]);
    const m = managerWith([slow], dir);
    const controller = new AbortController();
    try {
      const call = m.tools()[0]?.execute({ message: 'x' }, toolContext(controller.signal));
      controller.abort(new Error('interrupted'));
      await expect(call ?? Promise.resolve()).rejects.toThrow('interrupted');
    } finally {
      await m.close();
    }
  }, 30_000);
});

describe('stderrReason', () => {
  test("an uncaught error: its own line, not Node's source excerpt, stack or version trailer", () => {
    const tail = [
      'file:///srv/server.mjs:1',
      "if (!process.env.GITHUB_TOKEN) throw new Error('GITHUB_TOKEN is not set');",
      '                                     ^',
      '',
      'Error: GITHUB_TOKEN is not set',
      '    at file:///srv/server.mjs:1:38',
      '    at ModuleJob.run (node:internal/modules/esm/module_job:234:25)',
      '',
      'Node.js v20.20.2',
    ].join('\n');
    expect(stderrReason(tail)).toBe('Error: GITHUB_TOKEN is not set');
  });

  test('plain log lines: the last three', () => {
    expect(stderrReason('starting\nreading config\nno token given\nbye\n')).toBe('reading config | no token given | bye');
  });
});
