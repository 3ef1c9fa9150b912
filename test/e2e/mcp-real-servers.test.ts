/**
 * End to end against the real server-everything (stdio) on dist/moat with the
 * scripted model: what a server sends reaches the model (instructions, large
 * results and binary resources saved to files), names with dots or spaces,
 * `moat mcp add-json`, elicitation (cancelled in -p, forwarded to the Agent
 * SDK's onElicitation).
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FakeAnthropic } from '../support/fake-anthropic.ts';
import { reply } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { MOAT_BIN, runMoat, type Sandbox } from '../support/run-moat.ts';
import { query, type ElicitationRequest, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';

const EVERYTHING_JS = resolve(import.meta.dir, '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const config = (name: string) => JSON.stringify({ mcpServers: { [name]: { command: process.execPath, args: [EVERYTHING_JS, 'stdio'] } } });

let server: FakeAnthropic;
let sb: Sandbox;
serveFakeAnthropic(
  (s) => (server = s),
  (s) => (sb = s),
);

const moat = (args: string[], stdin?: string) => runMoat(args, { cwd: sb.cwd, env: sb.env, ...(stdin === undefined ? {} : { stdin }) });
type Block = { type: string; text?: string; content?: unknown; tool_use_id?: string };
type Body = { system?: string | { text: string }[]; tools: { name: string }[]; messages: { role: string; content: string | Block[] }[] };
const body = (i: number) => server.requests[i]?.body as Body;
const systemText = (b: Body) => (typeof b.system === 'string' ? b.system : (b.system ?? []).map((x) => x.text).join('\n'));
/** The text of the last tool_result the model was sent in request i. */
function lastToolResult(i: number): string {
  const last = body(i).messages.at(-1)?.content;
  const result = Array.isArray(last) ? last.find((c) => c.type === 'tool_result') : undefined;
  const c = result?.content;
  if (typeof c === 'string') return c;
  return Array.isArray(c) ? (c as Block[]).map((x) => x.text ?? `[${x.type}]`).join('\n') : '';
}

describe('real MCP servers, end to end', () => {
  test('a server named "my.server" is accepted and its tools are mcp__my_server__*, as in Claude Code', async () => {
    server.script(
      // No think time: on the first run with a server, moat waits for it before the first request (as Claude Code does).
      reply().toolUse('ToolSearch', { query: 'select:mcp__my_server__echo' }).stop('tool_use'),
      reply().toolUse('mcp__my_server__echo', { message: 'dotted' }).stop('tool_use'),
      reply().text('Done.'),
    );
    const r = await moat(['-p', 'echo', '--mcp-config', config('my.server'), '--allowedTools', 'mcp__my_server']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(lastToolResult(2)).toContain('Echo: dotted');
    // The server's initialize instructions are in the system prompt once it is connected, under its name.
    const system = systemText(body(1));
    expect(system).toContain('# MCP Server Instructions');
    expect(system).toContain('## my.server\n# Everything Server – Server Instructions');
  }, 30_000);

  test('moat mcp add-json: user scope (a config.toml table), project scope (.mcp.json as given), stdin, and a bad entry', async () => {
    const entry = JSON.stringify({ type: 'stdio', command: process.execPath, args: [EVERYTHING_JS, 'stdio'], env: { GREETING: 'hi' } });
    expect(await moat(['mcp', 'add-json', 'ev', entry])).toMatchObject({ code: 0, stderr: '' });
    const toml = readFileSync(join(sb.home, '.config', 'moat', 'config.toml'), 'utf8');
    expect(toml).toContain('[mcp_servers.ev]');
    expect(toml).toContain('[mcp_servers.ev.env]');
    const list = await moat(['mcp', 'list']);
    expect(list.stdout).toMatch(/^ev {2}connected {2}\d+ tools {2}stdio/);
    expect((await moat(['mcp', 'add-json', 'ev', entry])).stderr).toContain('ev is already in');

    expect(await moat(['mcp', 'add-json', '--scope', 'project', 'web', '-'], JSON.stringify({ type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Key': '${KEY:-none}' } }))).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(readFileSync(join(sb.cwd, '.mcp.json'), 'utf8'))).toEqual({ mcpServers: { web: { type: 'http', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Key': '${KEY:-none}' } } } });

    expect(await moat(['mcp', 'add-json', 'bad', '{"command": 3}'])).toMatchObject({ code: 2, stderr: 'moat: mcp add-json bad: command: Invalid input: expected string, received number\n' });
    expect(await moat(['mcp', 'add-json', 'bad', '{nope'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^moat: mcp add-json bad: not valid JSON: .+\n$/) });
    expect(await moat(['mcp', 'add-json', 'my.server', entry])).toMatchObject({ code: 2, stderr: expect.stringContaining('is not a server name') });
  }, 60_000);

  test('a result over the cap is saved whole to a file the model is given, and reads back with Read (no question in -p); an embedded binary resource is saved to a file too', async () => {
    const sessionId = '7f0c3a52-5a0e-4c7b-9d61-2b1d7d1c9a10';
    const big = Array.from({ length: 3000 }, (_, i) => `line ${i} ${'y'.repeat(90)}`).join('\n');
    const original = 'hello gzip from a data URI\n'.repeat(50);
    const dataUri = `data:text/plain;base64,${Buffer.from(original).toString('base64')}`;
    const dir = join(sb.home, '.local', 'share', 'moat', 'tool-results', sessionId);
    const saved = join(dir, 'toolu_big-output.txt');
    server.script(
      reply().toolUse('ToolSearch', { query: 'select:mcp__ev__echo,mcp__ev__gzip-file-as-resource' }).stop('tool_use'),
      reply().toolUse('mcp__ev__echo', { message: big }, { id: 'toolu_big' }).stop('tool_use'),
      reply().toolUse('Read', { file_path: saved, offset: 2001, limit: 2 }).stop('tool_use'),
      reply().toolUse('mcp__ev__gzip-file-as-resource', { name: 'greeting.txt.gz', data: dataUri, outputType: 'resource' }, { id: 'toolu_gz' }).stop('tool_use'),
      reply().text('Done.'),
    );
    const r = await moat(['-p', 'go', '--session-id', sessionId, '--mcp-config', config('ev'), '--allowedTools', 'mcp__ev']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    // The model got the path and a preview, not 300,000 characters cut at the cap; the file holds all of it.
    const told = lastToolResult(2);
    expect(told).toContain(`over the 25000-token limit for one result. The whole output was saved to ${saved}`);
    expect(told).toContain('line 0 yyy');
    expect(told.length).toBeLessThan(3000);
    expect(readFileSync(saved, 'utf8')).toBe(`Echo: ${big}`);
    expect(lastToolResult(3)).toContain('line 2000 yyy');
    // The gzip blob: saved with its own extension, and it is the real gzip of the data.
    const gz = lastToolResult(4);
    const m = /saved to (\S+\.gz)\]/.exec(gz);
    expect(m?.[1]).toBe(join(dir, 'toolu_gz-1.gz'));
    expect(new TextDecoder().decode(Bun.gunzipSync(readFileSync(m?.[1] ?? '')))).toBe(original);
  }, 60_000);

  test("elicitation is declared: server-everything's elicitation tool is offered; in -p the request is cancelled, as in Claude Code", async () => {
    server.script(
      reply().toolUse('ToolSearch', { query: 'select:mcp__ev__trigger-elicitation-request' }).stop('tool_use'),
      reply().toolUse('mcp__ev__trigger-elicitation-request', {}).stop('tool_use'),
      reply().text('Done.'),
    );
    const r = await moat(['-p', 'ask me', '--mcp-config', config('ev'), '--allowedTools', 'mcp__ev']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(body(1).tools.map((t) => t.name)).toContain('mcp__ev__trigger-elicitation-request');
    expect(lastToolResult(2)).toMatch(/cancel/i);
  }, 60_000);

  test("the Agent SDK's onElicitation answers a server's elicitation (forwarded as control_request elicitation); its answer reaches the server and the model", async () => {
    const asked: ElicitationRequest[] = [];
    server.script(
      reply().toolUse('ToolSearch', { query: 'select:mcp__ev__trigger-elicitation-request' }).stop('tool_use'),
      reply().toolUse('mcp__ev__trigger-elicitation-request', {}).stop('tool_use'),
      reply().text('Done.'),
    );
    const q = query({
      prompt: 'ask me',
      options: {
        pathToClaudeCodeExecutable: MOAT_BIN,
        cwd: sb.cwd,
        env: sb.env,
        model: 'claude-sonnet-4-5',
        mcpServers: { ev: { command: process.execPath, args: [EVERYTHING_JS, 'stdio'] } },
        mcpServersDelivery: 'argv',
        allowedTools: ['mcp__ev'],
        onElicitation: async (request) => {
          asked.push(request);
          return { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
        },
      },
    });
    const messages: SDKMessage[] = [];
    for await (const m of q) messages.push(m);
    expect(messages.find((m) => m.type === 'result')).toMatchObject({ subtype: 'success' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ serverName: 'ev', mode: 'form', message: 'Please provide inputs for the following fields:' });
    expect(Object.keys((asked[0]?.requestedSchema as { properties: object }).properties)).toContain('name');
    const told = lastToolResult(2);
    expect(told).toContain('User provided the requested information');
    expect(told).toContain('Name: Ada Lovelace');
  }, 60_000);
});
