/**
 * End to end: the MCP SDK's client calls the compiled `dist/moat mcp serve` (stdio, and Streamable
 * HTTP on a loopback port) against the fake model server: a task and its structured result with
 * progress, permissions decided by the call's mode (never asked, never silently allowed), a reply
 * in the same session, a cancelled call, and a foreign Host header refused.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { MOAT_BIN, makeSandbox, type Sandbox } from '../support/run-moat.ts';

let server: FakeAnthropic;
let sb: Sandbox;
const open: { close(): Promise<void> }[] = [];

serveFakeAnthropic((s) => (server = s));
beforeEach(() => {
  sb = makeSandbox(server.url);
  server.requests.length = 0;
});
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
  rmSync(dirname(sb.cwd), { recursive: true, force: true });
});

type Body = { messages: { role: string; content: { type: string; text?: string }[] }[] };
interface TaskResult {
  content: { type: string; text: string }[];
  isError?: boolean;
  structuredContent: {
    sessionId: string;
    result: string;
    stopReason: string;
    isError: boolean;
    costUsd: number;
    turns: number;
    filesChanged: string[];
    permissionDenials: { toolName: string; message: string }[];
  };
}

async function stdioClient(): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: MOAT_BIN, args: ['mcp', 'serve'], cwd: sb.cwd, env: sb.env, stderr: 'pipe' }));
  open.push(client);
  return client;
}

const callMoat = (client: Client, args: Record<string, unknown>, options: Parameters<Client['callTool']>[2] = {}) =>
  client.callTool({ name: 'moat', arguments: args }, undefined, options) as Promise<unknown> as Promise<TaskResult>;

describe('moat mcp serve', () => {
  test('tools/list offers moat and moat_reply; a task reads a file and answers, with progress and its structured result', async () => {
    writeFileSync(join(sb.cwd, 'a.txt'), 'hello\n');
    server.script(reply().toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'), reply().text('It says hello.'));
    const client = await stdioClient();
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['moat', 'moat_reply']);
    expect(Object.keys(tools.tools[0]?.inputSchema.properties ?? {})).toEqual(['prompt', 'cwd', 'model', 'permissionMode', 'allowedTools', 'disallowedTools', 'maxTurns', 'worktree']);
    const progress: string[] = [];
    const r = await callMoat(client, { prompt: 'What does a.txt say?' }, { onprogress: (p) => progress.push(p.message ?? '') });
    expect(r.content).toEqual([{ type: 'text', text: 'It says hello.' }]);
    expect(r.structuredContent).toMatchObject({ result: 'It says hello.', stopReason: 'end_turn', isError: false, turns: 2, filesChanged: [], permissionDenials: [] });
    expect(r.structuredContent.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.structuredContent.costUsd).toBeGreaterThan(0);
    expect(progress).toEqual([`moat session ${r.structuredContent.sessionId} started`, 'Read a.txt', 'writing']);
  }, 30_000);

  test('an edit nobody can approve is denied in the default mode; acceptEdits lets it through and lists the file', async () => {
    writeFileSync(join(sb.cwd, 'a.txt'), 'one\n');
    const readThenEdit = () => [
      reply().toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'),
      reply().toolUse('Edit', { file_path: 'a.txt', old_string: 'one', new_string: 'two' }).stop('tool_use'),
    ];
    server.script(...readThenEdit(), reply().text('could not'), ...readThenEdit(), reply().text('done'));
    const client = await stdioClient();
    const denied = await callMoat(client, { prompt: 'change one to two' });
    expect(readFileSync(join(sb.cwd, 'a.txt'), 'utf8')).toBe('one\n');
    expect(denied.structuredContent.permissionDenials).toEqual([{ toolName: 'Edit', message: expect.any(String) }]);
    expect(denied.structuredContent.filesChanged).toEqual([]);
    const allowed = await callMoat(client, { prompt: 'change one to two', permissionMode: 'acceptEdits' });
    expect(readFileSync(join(sb.cwd, 'a.txt'), 'utf8')).toBe('two\n');
    expect(allowed.structuredContent).toMatchObject({ result: 'done', filesChanged: [join(sb.cwd, 'a.txt')], permissionDenials: [] });
  }, 30_000);

  test('moat_reply goes on with the session; an unknown session or folder is the tool error, in one line', async () => {
    server.script(reply().text('First.'), reply().text('Second.'));
    const client = await stdioClient();
    const first = await callMoat(client, { prompt: 'one' });
    const second = (await client.callTool({ name: 'moat_reply', arguments: { sessionId: first.structuredContent.sessionId, prompt: 'two' } })) as unknown as TaskResult;
    expect(second.structuredContent).toMatchObject({ sessionId: first.structuredContent.sessionId, result: 'Second.' });
    expect((server.requests[1]?.body as Body).messages.map((m) => m.content.map((c) => c.text ?? '').join(''))).toEqual(['one', 'First.', 'two']);
    const unknown = (await client.callTool({ name: 'moat_reply', arguments: { sessionId: 'nope', prompt: 'x' } })) as unknown as TaskResult;
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]?.text).toMatch(/^moat could not start: .*nope/);
    const badCwd = await callMoat(client, { prompt: 'x', cwd: join(sb.cwd, 'missing') });
    expect(badCwd.isError).toBe(true);
    expect(badCwd.content[0]?.text.split('\n')).toHaveLength(1);
  }, 30_000);

  test('a call the client cancels stops the run; the session was saved and goes on', async () => {
    server.script(reply().text('slow '.repeat(300), { chunkSize: 5, delayMs: 20 }), reply().text('after the cancel'));
    const client = await stdioClient();
    const controller = new AbortController();
    let sessionId = '';
    const call = callMoat(client, { prompt: 'talk slowly' }, {
      signal: controller.signal,
      onprogress: (p) => {
        sessionId = /moat session (\S+) started/.exec(p.message ?? '')?.[1] ?? sessionId;
        // Cancelled once the answer is streaming.
        if (p.message === 'writing') controller.abort();
      },
    });
    await expect(call).rejects.toThrow();
    const next = (await client.callTool({ name: 'moat_reply', arguments: { sessionId, prompt: 'and now?' } })) as unknown as TaskResult;
    expect(next.structuredContent.result).toBe('after the cancel');
    const sent = (server.requests[1]?.body as Body).messages;
    expect(sent[0]?.content[0]?.text).toBe('talk slowly');
    // The cancel reached the run: its answer was cut short and saved as interrupted.
    const cut = sent[1]?.content.map((c) => c.text ?? '').join('') ?? '';
    expect(cut).toContain('[interrupted by the user]');
    expect(cut.length).toBeLessThan('slow '.repeat(300).length);
    expect(sent.at(-1)?.content.at(-1)?.text).toBe('and now?');
  }, 30_000);

  test('a client that goes away mid-call: the run is cancelled, its session saved and ended (SessionEnd runs), moat exits', async () => {
    const ended = join(sb.cwd, 'ended.json');
    mkdirSync(join(sb.home, '.claude'), { recursive: true });
    writeFileSync(join(sb.home, '.claude', 'settings.json'), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: `cat > ${JSON.stringify(ended)}` }] }] } }));
    server.script(reply().text('slow '.repeat(300), { chunkSize: 5, delayMs: 20 }));
    const client = await stdioClient();
    let sessionId = '';
    let writing: () => void = () => {};
    const started = new Promise<void>((done) => (writing = done));
    const call = callMoat(client, { prompt: 'talk slowly' }, {
      onprogress: (p) => {
        sessionId = /moat session (\S+) started/.exec(p.message ?? '')?.[1] ?? sessionId;
        if (p.message === 'writing') writing();
      },
    });
    await started;
    // Closes moat's stdin and waits for it to exit (SIGTERM after 2 s, SIGKILL after 4 s, if it did not).
    const t0 = Date.now();
    await client.close();
    await call.catch(() => undefined);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(JSON.parse(readFileSync(ended, 'utf8'))).toMatchObject({ hook_event_name: 'SessionEnd', session_id: sessionId });
  }, 30_000);

  test('--port serves Streamable HTTP on 127.0.0.1; a foreign Host header is refused', async () => {
    server.script(reply().text('over HTTP'));
    const proc = Bun.spawn([MOAT_BIN, 'mcp', 'serve', '--port', '0'], { cwd: sb.cwd, env: sb.env, stdout: 'pipe', stderr: 'pipe' });
    open.push({ close: async () => void (proc.kill(), await proc.exited) });
    const reader = proc.stderr.getReader();
    let said = '';
    while (!/MCP server on (\S+)\n/.test(said)) {
      const chunk = await reader.read();
      if (chunk.done) throw new Error(`moat mcp serve --port 0 ended: ${said}`);
      said += new TextDecoder().decode(chunk.value);
    }
    const url = /MCP server on (\S+)\n/.exec(said)?.[1] ?? '';
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'test-agent', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    open.push(client);
    const r = await callMoat(client, { prompt: 'hi' });
    expect(r.structuredContent.result).toBe('over HTTP');
    const foreign = await fetch(url, {
      method: 'POST',
      headers: { Host: 'evil.example', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(foreign.status).toBe(403);
  }, 30_000);

  test('--port with a bad value is a one-line usage error', async () => {
    const proc = Bun.spawn([MOAT_BIN, 'mcp', 'serve', '--port', 'http'], { cwd: sb.cwd, env: sb.env, stdout: 'pipe', stderr: 'pipe' });
    const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
    expect(code).toBe(2);
    expect(stderr).toBe('moat: --port http: a port number (0-65535; 0 picks a free one)\n');
  });
});
