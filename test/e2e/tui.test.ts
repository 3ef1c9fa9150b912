/**
 * The compiled binary's interactive UI in a real terminal (tmux), against the
 * fake Anthropic suite.server. Build first: `bun run build` (writes dist/moat).
 * MOAT_TUI_BIN overrides the binary (e.g. a test build).
 */
import { expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../support/fake-anthropic.ts';
import { makeSandbox, MOAT_BIN, MOAT_TEST_BIN, type Sandbox } from '../support/run-moat.ts';
import { TmuxSession } from '../support/tmux.ts';
import { tuiSuite } from '../support/tui-suite.ts';
import { bigAnswer, miscounted } from '../../scripts/bench/tui-fixtures.ts';

const BIN = process.env.MOAT_TUI_BIN ?? MOAT_BIN;
const suite = tuiSuite(BIN);

/** Starts moat in a pane; after it exits the pane shows the exit code, the tty modes and stays. */
function launch(sb: Sandbox, extraEnv: Record<string, string> = {}, cols = 100, rows = 30, bin = BIN): TmuxSession {
  const cmd = `${bin}; echo "EXIT=$?"; stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo|isig)$' | tr '\\n' ' '; echo; sleep 60`;
  const env = { ...sb.env, ...extraEnv };
  delete env.NO_COLOR;
  const s = new TmuxSession(cmd, { cols, rows, cwd: sb.cwd, env });
  suite.track(s);
  return s;
}

async function prompt(s: TmuxSession, text: string): Promise<void> {
  await s.typeAndWait(text);
  s.keys('Enter');
}

function sandbox(): Sandbox {
  return makeSandbox(suite.server.url);
}

test('a streamed 20 KB answer lands in scrollback exactly once', async () => {
  const { text, markers } = bigAnswer();
  expect(text.length).toBeGreaterThan(19_000);
  // About 1,000 tokens/s: 16-character (4-token) deltas every 4 ms.
  suite.server.script(reply().text(text, { chunkSize: 16, delayMs: 4 }).stop('end_turn'));
  const s = launch(sandbox());
  await s.waitFor('Ask moat');
  await prompt(s, 'write the report');
  await s.waitFor(/para069 closes the answer/, { timeoutMs: 30_000, history: true });
  await s.waitFor(() => s.screen().includes('Ask moat'), { timeoutMs: 10_000 });
  const scrollback = s.screen({ history: true });
  expect(miscounted(scrollback, markers)).toEqual([]);
}, 60_000);

test('resizing the window mid-stream: scrollback still holds every line once, the frame re-lays out', async () => {
  const { text, markers } = bigAnswer();
  suite.server.script(reply().text(text, { chunkSize: 16, delayMs: 4 }).stop('end_turn'));
  const s = launch(sandbox());
  await s.waitFor('Ask moat');
  await prompt(s, 'write the report');
  // Narrower and shorter while paragraphs stream, then again inside the long code block.
  await s.waitFor(/para010/, { timeoutMs: 15_000, history: true });
  s.resize(80, 24);
  await s.waitFor(/codeline100/, { timeoutMs: 20_000, history: true });
  // While it streams, the frame is drawn once at the new size: one spinner line, one prompt line, at the bottom.
  const live = s.screen().trimEnd().split('\n');
  expect(live.filter((l) => l.includes('to interrupt'))).toHaveLength(1);
  expect(live.filter((l) => l.includes('Type to queue'))).toHaveLength(1);
  expect(live.at(-1)).toContain('Type to queue');
  s.resize(70, 20);
  await s.waitFor(/para069 closes the answer/, { timeoutMs: 30_000, history: true });
  await s.waitFor(() => s.screen().includes('Ask moat'), { timeoutMs: 10_000 });
  expect(miscounted(s.screen({ history: true }), markers)).toEqual([]);
  // The frame is drawn for 70 columns: a full-width rule, and no piece of an older, wider one left behind.
  const screen = s.screen().split('\n');
  expect(screen.filter((l) => /^─+$/.test(l)).map((l) => l.length)).toEqual([70]);
  expect(screen.every((l) => [...l].length <= 70)).toBe(true);
}, 60_000);

test('skills run as /name args and complete with their descriptions; [keymap] rebinds a key', async () => {
  const sb = sandbox();
  mkdirSync(join(sb.cwd, '.git'));
  mkdirSync(join(sb.cwd, '.moat', 'skills', 'shout'), { recursive: true });
  writeFileSync(join(sb.cwd, '.moat', 'skills', 'shout', 'SKILL.md'), '---\ndescription: Shout the words back\n---\nSHOUT THIS: $ARGUMENTS\n');
  writeFileSync(join(sb.cwd, '.moat', 'config.toml'), '[keymap]\ncycleMode = ["shift+tab", "ctrl+t"]\n');
  suite.server.script(reply().text('HELLO THERE').stop('end_turn'));
  const before = suite.server.requests.length;
  const s = launch(sb);
  await s.waitFor('Ask moat');
  await s.typeAndWait('/sho');
  await s.waitFor('Shout the words back');
  await prompt(s, 'ut hello there');
  await s.waitFor('HELLO THERE');
  expect(s.screen()).toContain('> /shout hello there');
  const sent = JSON.stringify(suite.server.requests.slice(before).map((r) => r.body));
  expect(sent).toContain('SHOUT THIS: hello there');
  // An unknown /word is not sent.
  await prompt(s, '/shuot loud');
  await s.waitFor('Unknown command /shuot');
  expect(suite.server.requests.length).toBe(before + 1);
  s.keys('C-t');
  await s.waitFor('accept edits');
}, 30_000);

test('a bad [keymap] entry stops moat with the file, line and key', async () => {
  const sb = sandbox();
  mkdirSync(join(sb.cwd, '.git'));
  mkdirSync(join(sb.cwd, '.moat'));
  writeFileSync(join(sb.cwd, '.moat', 'config.toml'), '# keys\n[keymap]\nexpand = "hyper+o"\n');
  const s = launch(sb);
  const screen = await s.waitFor(/EXIT=\d+/);
  expect(screen).toContain('.moat/config.toml:3: keymap.expand: unknown modifier "hyper" in "hyper+o"');
  expect(screen).not.toContain('EXIT=0');
}, 20_000);

test('approvals: allow once, then allow always, then no prompt', async () => {
  const sb = sandbox();
  const file = join(sb.cwd, 'a.txt');
  writeFileSync(file, 'one\n');
  suite.server.script(
    reply().toolUse('Read', { file_path: file }).toolUse('Edit', { file_path: file, old_string: 'one', new_string: 'two' }).stop('tool_use'),
    reply().text('Edited once.').stop('end_turn'),
    reply().toolUse('Edit', { file_path: file, old_string: 'two', new_string: 'three' }).stop('tool_use'),
    reply().text('Edited twice.').stop('end_turn'),
    reply().toolUse('Edit', { file_path: file, old_string: 'three', new_string: 'four' }).stop('tool_use'),
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
  suite.server.script(
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
  const s = launch(sandbox(), { MOAT_TEST_CRASH: '1' }, 100, 30, MOAT_TEST_BIN);
  const screen = await s.waitFor(/EXIT=\d+/, { timeoutMs: 8000 });
  expect(screen).toContain('EXIT=1');
  expect(screen).toContain('internal error: injected crash');
  await s.waitFor(/icanon/);
  expect(s.screen()).not.toMatch(/-icanon|-echo\b/);
  expect(s.info('#{cursor_flag}')).toBe('1');
}, 20_000);

test('dist/moat ignores the crash switch: it exists only in the test build', async () => {
  const s = launch(sandbox(), { MOAT_TEST_CRASH: '1' });
  await s.waitFor('Ask moat');
  // Past the hook's 300 ms, the app is still up.
  const since = performance.now();
  await s.waitFor(() => performance.now() - since > 800);
  expect(s.screen()).not.toContain('EXIT=');
}, 20_000);

test('--continue opens the TUI with the earlier transcript, and the next prompt carries its history', async () => {
  const sb = sandbox();
  suite.server.script(reply().text('I will remember 42.').stop('end_turn'));
  const first = Bun.spawn([BIN, '-p', 'remember the number 42'], { cwd: sb.cwd, env: sb.env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  expect(await first.exited).toBe(0);
  const before = suite.server.requests.length;

  const env = { ...sb.env };
  delete env.NO_COLOR;
  const s = new TmuxSession(`${BIN} -c; sleep 60`, { cols: 100, rows: 30, cwd: sb.cwd, env });
  suite.track(s);
  await s.waitFor('Ask moat');
  const screen = s.screen({ history: true });
  expect(screen).toContain('remember the number 42');
  expect(screen).toContain('I will remember 42.');

  suite.server.script(reply().text('It was 42.').stop('end_turn'));
  await prompt(s, 'which number?');
  await s.waitFor('It was 42.');
  const body = suite.server.requests[before]!.body as { messages: { role: string }[] };
  expect(body.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
}, 30_000);
