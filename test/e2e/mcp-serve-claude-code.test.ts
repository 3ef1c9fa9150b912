/**
 * End to end: Claude Code itself (the binary the Claude Agent SDK ships, a devDependency already)
 * configured with `dist/moat mcp serve` as an MCP server through `claude -p --mcp-config`, calling
 * the `moat` tool; both talk to the one fake model server, each request routed by its prompt.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { MOAT_BIN, makeSandbox, type Sandbox } from '../support/run-moat.ts';

const CLAUDE = resolve(import.meta.dir, '../../node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude');

let server: FakeAnthropic;
let sb: Sandbox;

beforeAll(async () => {
  if (!existsSync(MOAT_BIN)) throw new Error('dist/moat is missing: run `bun run build` first');
  if (!existsSync(CLAUDE)) throw new Error(`Claude Code is missing at ${CLAUDE}: run bun install`);
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

type Body = { messages: { role: string; content: string | { type: string; text?: string; content?: unknown }[] }[] };

describe('Claude Code calls moat mcp serve', () => {
  test('claude -p --mcp-config: the moat tool runs a task in moat and its answer comes back to Claude Code', async () => {
    writeFileSync(join(sb.cwd, 'a.txt'), 'hello from the file\n');
    // moat's own session: its first user message is the task Claude Code's model wrote.
    server.route('MOAT-TASK', reply().toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'), reply().text('The file says hello.'));
    server.route('ASK-MOAT', reply().toolUse('mcp__moat__moat', { prompt: 'MOAT-TASK: what does a.txt say?' }).stop('tool_use'), reply().text('moat says: the file says hello.'));
    const config = JSON.stringify({ mcpServers: { moat: { command: MOAT_BIN, args: ['mcp', 'serve'] } } });
    const proc = Bun.spawn(
      [CLAUDE, '-p', 'ASK-MOAT: ask moat what a.txt says', '--mcp-config', config, '--strict-mcp-config', '--allowedTools', 'mcp__moat__moat', '--output-format', 'json', '--model', 'claude-sonnet-4-5'],
      { cwd: sb.cwd, env: { ...sb.env, ANTHROPIC_API_KEY: 'fake', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', MCP_TIMEOUT: '20000' }, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' },
    );
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(stdout)).toMatchObject({ type: 'result', is_error: false, result: 'moat says: the file says hello.' });
    // What Claude Code's model got back from the moat tool: moat's answer, after moat read the file.
    const last = server.requests.filter((r) => JSON.stringify(r.body).includes('ASK-MOAT')).at(-1)?.body as Body;
    expect(JSON.stringify(last.messages.at(-1))).toContain('The file says hello.');
    const moatSide = server.requests.filter((r) => JSON.stringify(r.body).includes('MOAT-TASK: what does a.txt say?') && !JSON.stringify(r.body).includes('ASK-MOAT'));
    expect(JSON.stringify(moatSide.at(-1)?.body)).toContain('hello from the file');
  }, 60_000);
});
