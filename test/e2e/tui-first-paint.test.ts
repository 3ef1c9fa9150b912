/**
 * The TUI's first frame, drawn before Ink loads (src/tui/first-paint.ts), in a
 * real terminal (tmux) with the compiled binary: moat is stopped (SIGSTOP) the
 * moment the pre-painted frame reaches the pane, so the screen can be read
 * while only the pre-paint is on it; then it goes on and Ink takes over. The
 * screen and the scrollback must be the same before and after, keys typed in
 * between must reach the prompt, and where Ink's first frame would differ
 * nothing is pre-painted. Build first: `bun run build`.
 */
import { expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../support/fake-anthropic.ts';
import { makeSandbox, MOAT_BIN, waitUntil, type Sandbox } from '../support/run-moat.ts';
import { tempDir } from '../support/temp.ts';
import { TmuxSession } from '../support/tmux.ts';
import { tuiSuite } from '../support/tui-suite.ts';

const BIN = process.env.MOAT_TUI_BIN ?? MOAT_BIN;
const BSU = '\x1b[?2026h';
/** moat processes this file stopped: a failing test must not leave them stopped, where killing the pane cannot end them. */
const stopped = new Set<number>();
const suite = tuiSuite(BIN, () => {
  for (const pid of stopped) {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // Gone already.
    }
  }
  stopped.clear();
});

function sandbox(): Sandbox {
  const sb = makeSandbox(suite.server.url);
  delete sb.env.NO_COLOR;
  return sb;
}

interface Pane {
  s: TmuxSession;
  /** Everything written to the pane so far (tmux's pipe-pane copy). */
  output(): string;
  pid: number;
}

const count = (text: string, what: string) => text.split(what).length - 1;

/**
 * Starts moat (`args` go through sh) in a pane whose output is copied to a
 * file from before moat runs; 40 numbered lines first, so the pane has
 * scrollback to compare, then a line without its newline (moat starts
 * mid-line, as after `printf`). After moat exits the pane shows its exit code
 * and the tty's modes.
 */
async function start(sb: Sandbox, args = '', cols = 100, rows = 30): Promise<Pane> {
  const dir = tempDir('moat-first-paint-');
  const gate = join(dir, 'gate');
  const pidFile = join(dir, 'pid');
  const out = join(dir, 'out');
  if (Bun.spawnSync(['mkfifo', gate]).exitCode !== 0) throw new Error('mkfifo failed');
  const cmd = `read _ < ${gate}; seq 1 40; printf 'no newline here'; sh -c 'echo $$ > ${pidFile}; exec ${BIN} ${args}'; echo "EXIT=$?"; stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo|isig)$' | tr '\\n' ' '; echo; sleep 60`;
  const s = new TmuxSession(cmd, { cols, rows, cwd: sb.cwd, env: sb.env });
  suite.track(s);
  if (Bun.spawnSync(['tmux', '-S', s.sock, '-f', '/dev/null', 'pipe-pane', '-o', '-t', 'main', `cat > ${out}`]).exitCode !== 0) throw new Error('pipe-pane failed');
  await waitUntil(() => existsSync(out), 5000, 'the pane output file');
  writeFileSync(gate, 'go\n');
  await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 5000, "moat's pid");
  return { s, pid: Number(readFileSync(pidFile, 'utf8')), output: () => readFileSync(out, 'latin1') };
}

/** Waits until nothing more is written to the pane for `quietMs`. */
async function settle(p: Pane, quietMs = 400): Promise<void> {
  let last = p.output().length;
  let since = performance.now();
  await waitUntil(
    () => {
      const n = p.output().length;
      if (n !== last) {
        last = n;
        since = performance.now();
      }
      return performance.now() - since > quietMs;
    },
    15_000,
    'the pane to settle',
  );
}

/**
 * Starts moat and stops it as soon as the pre-painted frame is in the pane,
 * before Ink drew (checked: one "Ask moat" in the output, and none of Ink's
 * synchronized frames). Ink loads for tens of milliseconds after the paint; on
 * a machine so busy that Ink got there first, it tries again.
 */
async function stoppedAtFirstPaint(sb: Sandbox): Promise<Pane> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const p = await start(sb);
    const end = performance.now() + 10_000;
    while (!p.output().includes('Ask moat')) {
      if (performance.now() > end) throw new Error(`no first frame; output:\n${p.output()}`);
      await Bun.sleep(1);
    }
    process.kill(p.pid, 'SIGSTOP');
    stopped.add(p.pid);
    // Whatever moat wrote before it stopped reaches the file.
    await Bun.sleep(150);
    const out = p.output();
    if (count(out, 'Ask moat') === 1 && !out.includes(BSU)) return p;
    process.kill(p.pid, 'SIGCONT');
    await p.s.kill();
  }
  throw new Error('Ink drew its first frame before moat could be stopped after the pre-paint, five times');
}

test('Ink replaces the pre-painted frame in place: screen and scrollback are the same before and after', async () => {
  const p = await stoppedAtFirstPaint(sandbox());
  const screen = p.s.screen({ escapes: true });
  const scrollback = p.s.screen({ history: true, escapes: true });
  expect(screen).toContain('Ask moat to do something');
  expect(screen).toContain('/help for commands');
  expect(p.s.info('#{cursor_flag}')).toBe('0');

  process.kill(p.pid, 'SIGCONT');
  await waitUntil(() => p.output().includes(BSU), 10_000, "Ink's first frame");
  await settle(p);
  const out = p.output();
  // Ink drew over the pre-paint (the frame went out twice), and that is what the pane shows.
  expect(count(out, 'Ask moat')).toBe(2);
  expect(p.s.screen({ escapes: true })).toBe(screen);
  const after = p.s.screen({ history: true, escapes: true });
  expect(after).toBe(scrollback);
  // Nothing twice in scrollback: the 40 shell lines, one banner, one prompt.
  expect(count(after, 'Ask moat')).toBe(1);
  expect(count(after, '/help for commands')).toBe(1);
  expect(after.split('\n').filter((l) => l === '40')).toHaveLength(1);
  // The frame started where the cursor was, mid-line: that line's text stays, once.
  expect(after.split('\n').filter((l) => l === 'no newline here')).toHaveLength(1);
  expect(p.s.info('#{cursor_flag}')).toBe('0');
}, 60_000);

test('keys typed while Ink loads wait unechoed in the terminal and reach the prompt', async () => {
  const p = await stoppedAtFirstPaint(sandbox());
  const screen = p.s.screen();
  // The terminal is already in raw mode: nothing is echoed, nothing waits for a line end.
  const modes = Bun.spawnSync(['stty', '-F', p.s.info('#{pane_tty}'), '-a']).stdout.toString();
  expect(modes).toMatch(/-icanon\b/);
  expect(modes).toMatch(/-echo\b/);
  p.s.type('fix the flaky test');
  await Bun.sleep(200);
  expect(p.s.screen()).toBe(screen);

  process.kill(p.pid, 'SIGCONT');
  const shown = await p.s.waitFor(/^> fix the flaky test/m, { timeoutMs: 10_000 });
  expect(shown).not.toContain('Ask moat');
}, 60_000);

test('a SIGTERM before Ink drew: the pre-paint is erased and the terminal given back', async () => {
  const p = await stoppedAtFirstPaint(sandbox());
  process.kill(p.pid, 'SIGTERM');
  process.kill(p.pid, 'SIGCONT');
  const screen = await p.s.waitFor(/EXIT=\d+\n.*icanon/, { timeoutMs: 10_000 });
  expect(screen).toContain('EXIT=143');
  const modes = screen.slice(screen.indexOf('EXIT=')).split('\n')[1]?.split(' ') ?? [];
  expect(modes).toEqual(expect.arrayContaining(['icanon', 'echo', 'isig']));
  expect(p.s.screen({ history: true })).not.toContain('Ask moat');
  expect(p.s.info('#{cursor_flag}')).toBe('1');
}, 60_000);

/** The bytes written before Ink's first synchronized frame: the pre-paint, if there was one. */
function beforeInk(p: Pane): string {
  const out = p.output();
  const i = out.indexOf(BSU);
  expect(i).toBeGreaterThan(-1);
  return out.slice(0, i);
}

test('a plain start pre-paints (the control for the cases below)', async () => {
  const p = await start(sandbox());
  await p.s.waitFor('Ask moat');
  await settle(p);
  expect(beforeInk(p)).toContain('claude-sonnet-4-5');
  expect(beforeInk(p)).toContain('Ask moat');
}, 60_000);

// Banner and frame are 8 rows: they would fill an 8-row pane (none of it could be erased from below), and at
// 60 columns Ink wraps the banner's last line.
for (const [what, cols, rows] of [
  ['a terminal too short for the frame above its last row', 100, 8],
  ['a terminal narrower than the banner', 60, 30],
] as const) {
  test(`no pre-paint in ${what}`, async () => {
    const p = await start(sandbox(), '', cols, rows);
    await p.s.waitFor('Ask moat');
    await settle(p);
    expect(beforeInk(p)).not.toContain('claude-sonnet-4-5');
    expect(count(p.output(), 'Ask moat')).toBe(1);
  }, 60_000);
}

test('no pre-paint with a first prompt on the command line (the turn is running when Ink draws)', async () => {
  suite.server.script(reply().text('Hello from the model.').stop('end_turn'));
  const p = await start(sandbox(), '"say hello"');
  await p.s.waitFor('Hello from the model.', { timeoutMs: 15_000 });
  expect(beforeInk(p)).not.toContain('claude-sonnet-4-5');
}, 60_000);

test('no pre-paint for a resumed session with a transcript', async () => {
  const sb = sandbox();
  suite.server.script(reply().text('I will remember 42.').stop('end_turn'));
  const first = Bun.spawn([BIN, '-p', 'remember the number 42'], { cwd: sb.cwd, env: sb.env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  expect(await first.exited).toBe(0);
  const p = await start(sb, '-c');
  await p.s.waitFor('Ask moat');
  await settle(p);
  expect(p.s.screen({ history: true })).toContain('I will remember 42.');
  expect(beforeInk(p)).not.toContain('claude-sonnet-4-5');
}, 60_000);

test('a warning found while the session is assembled: the early frame goes, the line shows, and Ink draws the only frame', async () => {
  const sb = sandbox();
  // The user's Claude Code file is read while the session is assembled, after the early frame is up.
  writeFileSync(join(sb.home, '.claude.json'), JSON.stringify({ mcpServers: { bad: { type: 'nope' } } }));
  const p = await start(sb);
  await p.s.waitFor('Ask moat');
  await settle(p);
  const screen = p.s.screen({ history: true });
  expect(screen).toContain('mcpServers.bad: needs command');
  // The early frame drew the banner; it was erased before the line, so the banner shows once, below the line.
  expect(count(screen, 'Ask moat')).toBe(1);
  expect(screen.indexOf('mcpServers.bad')).toBeLessThan(screen.indexOf('Ask moat'));
  expect(count(screen, '/help for commands')).toBe(1);
  // In the bytes: the early frame, then the line, then the frame runTui draws before Ink loads.
  const early = beforeInk(p);
  expect(count(early, '/help for commands')).toBe(2);
  expect(early.indexOf('/help for commands')).toBeLessThan(early.indexOf('mcpServers.bad'));
}, 60_000);
