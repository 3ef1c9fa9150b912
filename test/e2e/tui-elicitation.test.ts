/**
 * A real MCP server's question in the compiled binary's interactive UI
 * (tmux): server-everything's trigger-elicitation-request asks for a dozen
 * fields; the form is filled with keys (a bad email refused on screen first),
 * submitted, and the values reach the server, which puts them in the tool's
 * result for the model. Esc declines, and the server says so to the model.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test';
import { existsSync, rmSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { makeSandbox, MOAT_BIN } from '../support/run-moat.ts';
import { TmuxSession } from '../support/tmux.ts';

const EVERYTHING_JS = resolve(import.meta.dir, '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const TOOL = 'mcp__everything__trigger-elicitation-request';
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

type Block = { type: string; text?: string; content?: unknown };
type Body = { messages: { role: string; content: string | Block[] }[] };

/** The text of the last tool_result in the newest request the model got. */
function lastToolResult(): string {
  const last = (server.requests.at(-1)?.body as Body | undefined)?.messages.at(-1)?.content;
  const result = Array.isArray(last) ? last.find((c) => c.type === 'tool_result') : undefined;
  const c = result?.content;
  if (typeof c === 'string') return c;
  return Array.isArray(c) ? (c as Block[]).map((x) => x.text ?? '').join('\n') : '';
}

/** moat with server-everything, its tools allowed; returns once /mcp shows the server connected. */
async function startWithServer(): Promise<TmuxSession> {
  const sb = makeSandbox(server.url);
  folder = dirname(sb.cwd);
  const config = JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING_JS, 'stdio'] } } });
  const env: Record<string, string> = { ...sb.env };
  delete env.NO_COLOR;
  session = new TmuxSession(`${MOAT_BIN} --mcp-config '${config}' --allowedTools mcp__everything; sleep 60`, { cols: 120, rows: 45, cwd: sb.cwd, env });
  const s = session;
  await s.waitFor('Ask moat to do something', { timeoutMs: 15_000 });
  // /mcp prints the servers as they are now: asked again until it shows the server connected.
  const end = performance.now() + 30_000;
  for (let connected = false; !connected; ) {
    if (performance.now() > end) throw new Error(`server-everything did not connect; screen:\n${s.screen()}`);
    await s.submit('/mcp', 'Reconnect an MCP server?');
    const screen = s.screen();
    connected = /❯ everything\s+connected/.test(screen);
    s.keys('Escape');
    await s.waitFor(() => !s.screen().includes('Reconnect an MCP server?'));
  }
  return s;
}

/** Tab until the field labelled `label` has the focus (each press waits for the marker to move). */
async function focusField(s: TmuxSession, label: string): Promise<void> {
  const focused = new RegExp(`❯ ${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`);
  for (let i = 0; i < 20 && !focused.test(s.screen()); i++) {
    const before = /❯ .*$/m.exec(s.screen())?.[0];
    s.keys('Tab');
    await s.waitFor(() => /❯ .*$/m.exec(s.screen())?.[0] !== before);
  }
  await s.waitFor(focused);
}

function scriptElicitation(finalText: string): void {
  server.script(
    reply().toolUse('ToolSearch', { query: `select:${TOOL}` }).stop('tool_use'),
    reply().toolUse(TOOL, {}).stop('tool_use'),
    reply().text(finalText),
  );
}

test("a server's form is filled and submitted: the server gets the values, the model the tool's result", async () => {
  const s = await startWithServer();
  scriptElicitation('Thanks, the details arrived.');
  await s.submit('collect my details', 'MCP server everything asks');
  await s.waitFor('Please provide inputs for the following fields:');
  await s.typeAndWait('Ada Lovelace');
  await focusField(s, 'Boolean');
  s.keys('Space');
  await s.waitFor('[x] yes');
  await focusField(s, 'String with email format');
  await s.typeAndWait('not-an-email');
  s.keys('Enter');
  // Refused on screen, and the form stays.
  await s.waitFor('✗ Invalid email address');
  expect(s.screen()).toContain('MCP server everything asks');
  s.keys('C-u');
  await s.waitFor(() => !s.screen().includes('not-an-email'));
  await s.typeAndWait('ada@example.com');
  await focusField(s, 'Untitled Single Select Enum');
  s.keys('Right');
  await s.waitFor('‹ Rachel ›');
  s.keys('Enter');
  await s.waitFor('Thanks, the details arrived.', { timeoutMs: 20_000 });
  expect(s.screen()).not.toContain('MCP server everything asks');
  // server-everything writes what it received into the tool's result: the values made it there and on to the model.
  const result = lastToolResult();
  expect(result).toContain('User provided the requested information!');
  expect(result).toContain('- Name: Ada Lovelace');
  expect(result).toContain('- Agreed to terms: true');
  expect(result).toContain('- Email: ada@example.com');
  const raw = JSON.parse(result.slice(result.indexOf('Raw result:') + 'Raw result:'.length)) as { action: string; content: Record<string, unknown> };
  expect(raw).toEqual({
    action: 'accept',
    content: {
      name: 'Ada Lovelace',
      check: true,
      firstLine: 'It was a dark and stormy night.',
      email: 'ada@example.com',
      integer: 42,
      number: 3.14,
      untitledSingleSelectEnum: 'Rachel',
      untitledMultipleSelectEnum: ['Guitar'],
      titledSingleSelectEnum: 'hero-1',
      titledMultipleSelectEnum: ['fish-1'],
      legacyTitledEnum: 'pet-1',
    },
  });
}, 90_000);

test("Esc declines a server's form: the server tells the model the user declined", async () => {
  const s = await startWithServer();
  scriptElicitation('Understood, no details.');
  await s.submit('collect my details', 'MCP server everything asks');
  s.keys('Escape');
  await s.waitFor('Understood, no details.', { timeoutMs: 20_000 });
  expect(lastToolResult()).toContain('User declined to provide the requested information.');
  expect(JSON.parse(lastToolResult().split('Raw result:')[1] ?? '')).toEqual({ action: 'decline' });
}, 90_000);
