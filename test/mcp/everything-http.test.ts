/** server-everything over Streamable HTTP (tools, progress, resources, prompts, list changes), and over the older HTTP+SSE (reached by falling back), through the network policy. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createServer } from 'node:net';
import type { Subprocess } from 'bun';
import { policyFetchFor, serverGrant, NetworkRefusedError } from '../../src/mcp/index.ts';
import type { AnyTool } from '../../src/tools/index.ts';
import { waitUntil } from '../support/run-moat.ts';
import { EVERYTHING_JS, httpServer, manager, toolContext } from './support.ts';

async function freePort(): Promise<number> {
  return new Promise((res) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

async function startEverything(mode: 'streamableHttp' | 'sse'): Promise<{ proc: Subprocess; port: number }> {
  const port = await freePort();
  const proc = Bun.spawn([process.execPath, EVERYTHING_JS, mode], { env: { ...process.env, PORT: String(port) }, stdout: 'ignore', stderr: 'pipe' });
  const reader = (proc.stderr as ReadableStream<Uint8Array>).getReader();
  let text = '';
  while (!/listening|running/i.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`server-everything ${mode} did not start: ${text}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { proc, port };
}

const servers: Subprocess[] = [];
let httpPort = 0;
let ssePort = 0;
beforeAll(async () => {
  const [a, b] = await Promise.all([startEverything('streamableHttp'), startEverything('sse')]);
  servers.push(a.proc, b.proc);
  httpPort = a.port;
  ssePort = b.port;
});
afterAll(async () => {
  for (const p of servers) p.kill();
  await Promise.all(servers.map((p) => p.exited));
});

describe('remote servers', () => {
  test('Streamable HTTP: connects, lists tools, calls one, with progress', async () => {
    const m = manager([httpServer('remote', `http://localhost:${httpPort}/mcp`)]);
    try {
      m.startAll();
      await m.settled();
      expect(m.status()[0]).toMatchObject({ state: { status: 'connected' }, transport: 'http', sandboxed: undefined });
      const echo = m.tools().find((t) => t.name === 'mcp__remote__echo') as AnyTool;
      expect((await echo.execute({ message: 'over http' }, toolContext())).content).toBe('Echo: over http');
      const updates: unknown[] = [];
      const slow = m.tools().find((t) => t.name === 'mcp__remote__trigger-long-running-operation') as AnyTool;
      await slow.execute({ duration: 0.2, steps: 2 }, toolContext(undefined, updates as never[]));
      expect(updates.length).toBeGreaterThan(0);
    } finally {
      await m.close();
    }
  }, 20_000);

  test('Streamable HTTP: resources listed and read, prompts with arguments, and a resource the server adds gets listed (resources/list_changed)', async () => {
    const m = manager([httpServer('remote', `http://localhost:${httpPort}/mcp`)]);
    try {
      m.startAll();
      await m.settled();
      const tool = (name: string) => m.tools().find((t) => t.name === name) as AnyTool;
      const conn = m.get('remote');
      expect(conn?.prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['simple-prompt', 'args-prompt']));
      expect(JSON.stringify((await conn?.getPrompt('args-prompt', { city: 'Lyon' }))?.messages)).toContain('Lyon');
      const listed = JSON.parse(String((await tool('ListMcpResourcesTool').execute({ server: 'remote' }, toolContext())).content)) as { uri: string }[];
      const text = listed.find((r) => r.uri.includes('text')) ?? (listed[0] as { uri: string });
      const read = await tool('ReadMcpResourceTool').execute({ server: 'remote', uri: text.uri }, toolContext());
      expect(read.isError).toBeUndefined();
      expect(String(read.content)).toContain(`[resource ${text.uri}]`);
      // gzip-file-as-resource registers a session resource: notifications/resources/list_changed. Over HTTP it comes
      // on the standalone GET stream, not before the call's answer as over stdio, so it is waited for.
      const data = `data:text/plain;base64,${Buffer.from('over http').toString('base64')}`;
      await tool('mcp__remote__gzip-file-as-resource').execute({ name: 'http.gz', data }, toolContext());
      await waitUntil(() => conn?.resources.some((r) => r.uri === 'demo://resource/session/http.gz') === true, 5000, 'resources/list_changed over HTTP');
      expect(conn?.resources.length).toBe(listed.length + 1);
    } finally {
      await m.close();
    }
  }, 20_000);

  test('a server that only speaks HTTP+SSE is reached by falling back', async () => {
    const m = manager([httpServer('old', `http://localhost:${ssePort}/sse`)]);
    try {
      m.startAll();
      await m.settled();
      expect(m.status()[0]).toMatchObject({ state: { status: 'connected' }, transport: 'sse' });
      const sum = m.tools().find((t) => t.name === 'mcp__old__get-sum') as AnyTool;
      expect(String((await sum.execute({ a: 1, b: 2 }, toolContext())).content)).toContain('3');
    } finally {
      await m.close();
    }
  }, 20_000);

  test('the network policy: only the configured host; a public name that resolves to a private address is refused; metadata never', async () => {
    expect(serverGrant('http://localhost:3000/mcp')).toEqual({ allowHosts: ['*://localhost:*'], allowPrivate: true });
    expect(serverGrant('https://mcp.example.com/mcp')).toEqual({ allowHosts: ['*://mcp.example.com:*'], allowPrivate: false });
    expect(serverGrant('http://169.254.169.254/latest')).toEqual({ allowHosts: ['*://169.254.169.254:*'], allowPrivate: false });
    const fetchFor = policyFetchFor(serverGrant('https://mcp.example.com/mcp'));
    await expect(fetchFor('https://other.example.com/')).rejects.toThrow(NetworkRefusedError);
    // localtest.me is a public name that resolves to 127.0.0.1: refused for a server configured by name.
    const rebinding = policyFetchFor(serverGrant('http://localtest.me/mcp'));
    await expect(rebinding('http://localtest.me/mcp')).rejects.toThrow(/loopback|private|resolve|public/i);
    await expect(policyFetchFor(serverGrant('http://169.254.169.254/'))('http://169.254.169.254/')).rejects.toThrow(/metadata/);
  });

  test('a remote server that refuses with 401 asks for moat mcp login', async () => {
    const srv = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('no', { status: 401 }) });
    const m = manager([httpServer('locked', `http://127.0.0.1:${srv.port}/mcp`)]);
    try {
      m.startAll();
      await m.settled();
      expect(m.status()[0]?.state).toEqual({ status: 'needs-auth', error: 'needs login: run moat mcp login locked' });
    } finally {
      await m.close();
      await srv.stop(true);
    }
  });
});
