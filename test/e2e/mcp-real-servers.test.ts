/**
 * End to end against the real server-everything (stdio) on dist/moat with the
 * scripted model: what a server sends reaches the model (instructions, large
 * results and binary resources saved to files), names with dots or spaces,
 * `moat mcp add-json`, a crashed server restarted once.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FakeAnthropic } from '../support/fake-anthropic.ts';
import { reply } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { runMoat, type Sandbox } from '../support/run-moat.ts';

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
      reply().wait(2000).toolUse('ToolSearch', { query: 'select:mcp__my_server__echo' }).stop('tool_use'),
      reply().toolUse('mcp__my_server__echo', { message: 'dotted' }).stop('tool_use'),
      reply().text('Done.'),
    );
    const r = await moat(['-p', 'echo', '--mcp-config', config('my.server'), '--allowedTools', 'mcp__my_server']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(lastToolResult(2)).toContain('Echo: dotted');
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
});
