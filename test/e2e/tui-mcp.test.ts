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
