/**
 * MCP in the compiled binary's interactive UI (tmux): a project's .mcp.json
 * waits for the start-up approval, approving starts the server inside the OS
 * sandbox, /mcp shows it connected, and its prompt runs as a slash command.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { makeSandbox, MOAT_BIN } from '../support/run-moat.ts';
import { TmuxSession } from '../support/tmux.ts';

const EVERYTHING_JS = resolve(import.meta.dir, '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
let server: FakeAnthropic;
let session: TmuxSession | undefined;
let folder: string | undefined;

beforeAll(async () => {
  if (!existsSync(MOAT_BIN)) throw new Error(`${MOAT_BIN} is missing: run bun run build first`);
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await session?.kill();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

test("a project's MCP server: approved at start, connected in /mcp, its prompt a slash command", async () => {
  const sb = makeSandbox(server.url);
  folder = dirname(sb.cwd);
  writeFileSync(join(sb.cwd, '.mcp.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_JS, 'stdio'] } } }));
  const env: Record<string, string> = { ...sb.env };
  delete env.NO_COLOR;
  session = new TmuxSession(`${MOAT_BIN}; sleep 60`, { cols: 120, rows: 40, cwd: sb.cwd, env });
  const s = session;
  await s.waitFor('wants to start MCP server everything', { timeoutMs: 15_000 });
  s.keys('Enter');
  await s.waitFor('Approved MCP server everything for this folder');
  await s.waitFor(/MCP server everything connected: \d+ tools, \d+ prompts, \d+ resources\./, { timeoutMs: 20_000 });
  expect(s.screen({ history: true })).not.toContain('not started');
  await s.typeAndWait('/mcp');
  s.keys('Enter');
  await s.waitFor(/everything\s+✓ connected\s+stdio · (sandboxed|not sandboxed) · \d+ tools · \d+ prompts · \d+ resources · \.mcp\.json/, { timeoutMs: 20_000 });
  s.keys('Escape');
  await s.waitFor(() => !s.screen().includes('Reconnect an MCP server?'));
  server.script(reply().text('A fine city.'));
  await s.typeAndWait('/mcp__everything__args-prompt Lisbon');
  s.keys('Enter');
  await s.waitFor('A fine city.', { timeoutMs: 15_000 });
  expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('Lisbon');
}, 60_000);

test("a long MCP call's progress notifications show on its tool card while it runs", async () => {
  const sb = makeSandbox(server.url);
  folder = dirname(sb.cwd);
  const config = JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_JS, 'stdio'] } } });
  const env: Record<string, string> = { ...sb.env };
  delete env.NO_COLOR;
  session = new TmuxSession(`${MOAT_BIN} --mcp-config '${config}' --allowedTools mcp__everything; sleep 60`, { cols: 120, rows: 40, cwd: sb.cwd, env });
  const s = session;
  await s.waitFor('Ask moat to do something');
  server.script(
    // The model thinks a while: the server connects meanwhile.
    reply().wait(5000).toolUse('ToolSearch', { query: 'select:mcp__everything__trigger-long-running-operation' }).stop('tool_use'),
    reply().toolUse('mcp__everything__trigger-long-running-operation', { duration: 8, steps: 4 }).stop('tool_use'),
    reply().text('All steps done.'),
  );
  await s.typeAndWait('run the long operation');
  s.keys('Enter');
  // server-everything sends progress every 2 s of the 8: the card shows the share while the call runs.
  await s.waitFor(/(25|50|75)%/, { timeoutMs: 20_000 });
  expect(s.screen()).not.toContain('All steps done.');
  await s.waitFor('All steps done.', { timeoutMs: 20_000 });
}, 60_000);
