/**
 * The compiled binary's interactive UI in a real terminal (tmux), against the
 * fake Anthropic server. Build first: `bun run build` (writes dist/moat).
 * MOAT_TUI_BIN overrides the binary (e.g. a test build).
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { makeSandbox, MOAT_BIN, type Sandbox } from '../support/run-moat.ts';
import { TmuxSession } from '../support/tmux.ts';
import { bigAnswer, miscounted } from '../../scripts/bench/tui-fixtures.ts';

const BIN = process.env.MOAT_TUI_BIN ?? MOAT_BIN;
let server: FakeAnthropic;
let sessions: TmuxSession[] = [];

beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run bun run build first`);
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  for (const s of sessions) s.kill();
  sessions = [];
});

/** Starts moat in a pane; after it exits the pane shows the exit code, the tty modes and stays. */
function launch(sb: Sandbox, extraEnv: Record<string, string> = {}, cols = 100, rows = 30): TmuxSession {
  const cmd = `${BIN}; echo "EXIT=$?"; stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo|isig)$' | tr '\\n' ' '; echo; sleep 60`;
  const env = { ...sb.env, ...extraEnv };
  delete env.NO_COLOR;
  const s = new TmuxSession(cmd, { cols, rows, cwd: sb.cwd, env });
  sessions.push(s);
  return s;
}

async function prompt(s: TmuxSession, text: string): Promise<void> {
  await s.typeAndWait(text);
  s.keys('Enter');
}

function sandbox(): Sandbox {
  return makeSandbox(server.url);
}

test('a streamed 20 KB answer lands in scrollback exactly once', async () => {
  const { text, markers } = bigAnswer();
  expect(text.length).toBeGreaterThan(19_000);
  // About 1,000 tokens/s: 16-character (4-token) deltas every 4 ms.
  server.script(reply().text(text, { chunkSize: 16, delayMs: 4 }).stop('end_turn'));
  const s = launch(sandbox());
  await s.waitFor('Ask moat');
  await prompt(s, 'write the report');
  await s.waitFor(/para069 closes the answer/, { timeoutMs: 30_000, history: true });
  await s.waitFor(() => s.screen().includes('Ask moat'), { timeoutMs: 10_000 });
  const scrollback = s.screen({ history: true });
  expect(miscounted(scrollback, markers)).toEqual([]);
}, 60_000);

test('approvals: allow once, then allow always, then no prompt', async () => {
  const sb = sandbox();
  const file = join(sb.cwd, 'a.txt');
  writeFileSync(file, 'one\n');
  server.script(
    reply().toolUse('read', { file_path: file }).toolUse('edit', { file_path: file, old_string: 'one', new_string: 'two' }).stop('tool_use'),
    reply().text('Edited once.').stop('end_turn'),
    reply().toolUse('edit', { file_path: file, old_string: 'two', new_string: 'three' }).stop('tool_use'),
    reply().text('Edited twice.').stop('end_turn'),
    reply().toolUse('edit', { file_path: file, old_string: 'three', new_string: 'four' }).stop('tool_use'),
    reply().text('Edited thrice.').stop('end_turn'),
  );
  const s = launch(sb);
  await s.waitFor('Ask moat');
  await prompt(s, 'first edit');
  await s.waitFor('Change a file');
  expect(s.screen()).toContain('- one');
  expect(s.screen()).toContain('+ two');
  s.keys('1');
  await s.waitFor('Edited once.');
  expect(readFileSync(file, 'utf8')).toBe('two\n');

  await prompt(s, 'second edit');
  await s.waitFor('Change a file');
  s.keys('2');
  await s.waitFor('Edited twice.');
  expect(readFileSync(join(sb.cwd, '.moat', 'config.toml'), 'utf8')).toContain('Edit(');

  await prompt(s, 'third edit');
  await s.waitFor('Edited thrice.', { timeoutMs: 8000 });
  expect(readFileSync(file, 'utf8')).toBe('four\n');
  // The third edit never asked: only two dialogs ever reached the screen.
  expect(s.screen({ history: true }).split("Yes, and don't ask again").length - 1).toBeLessThanOrEqual(2);
}, 40_000);

test('Esc mid-stream keeps the partial answer, then a new prompt works', async () => {
  server.script(
    reply().text(`Streaming slowly ${'word '.repeat(400)}`, { chunkSize: 5, delayMs: 20 }).stop('end_turn'),
    reply().text('A fresh answer.').stop('end_turn'),
  );
  const s = launch(sandbox());
  await s.waitFor('Ask moat');
  await prompt(s, 'go slowly');
  await s.waitFor('Streaming slowly');
  s.keys('Escape');
  await s.waitFor('Interrupted');
  await s.waitFor('Ask moat');
  await prompt(s, 'again');
  await s.waitFor('A fresh answer.');
  expect(s.screen({ history: true })).toContain('Streaming slowly');
  expect(s.info('#{pane_dead}')).toBe('0');
}, 30_000);

test('Ctrl-C twice exits with the terminal restored', async () => {
  const s = launch(sandbox());
  await s.waitFor('Ask moat');
  s.keys('C-c');
  await s.waitFor('Press Ctrl-C again');
  s.keys('C-c');
  const screen = await s.waitFor(/EXIT=\d+/);
  expect(screen).toContain('EXIT=0');
  await s.waitFor(/icanon/);
  expect(s.screen()).toMatch(/(^|\s)icanon/m);
  expect(s.screen()).toMatch(/(^|\s)echo(\s|$)/m);
  expect(s.screen()).not.toMatch(/-icanon|-echo\b/);
  expect(s.info('#{cursor_flag}')).toBe('1');
}, 20_000);

test('an injected crash restores the terminal and exits 1', async () => {
  const s = launch(sandbox(), { MOAT_TEST_HOOKS: '1', MOAT_TEST_CRASH: '1' });
  const screen = await s.waitFor(/EXIT=\d+/, { timeoutMs: 8000 });
  expect(screen).toContain('EXIT=1');
  expect(screen).toContain('internal error: injected crash');
  await s.waitFor(/icanon/);
  expect(s.screen()).not.toMatch(/-icanon|-echo\b/);
  expect(s.info('#{cursor_flag}')).toBe('1');
}, 20_000);

test('the crash hook does nothing without MOAT_TEST_HOOKS', async () => {
  const s = launch(sandbox(), { MOAT_TEST_CRASH: '1' });
  await s.waitFor('Ask moat');
  // Past the hook's 300 ms, the app is still up.
  const since = performance.now();
  await s.waitFor(() => performance.now() - since > 800);
  expect(s.screen()).not.toContain('EXIT=');
}, 20_000);
