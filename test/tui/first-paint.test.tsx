/**
 * The pre-painted first frame against Ink's real first frame (Ink's terminal
 * path into a fake tty): the same bytes wherever it paints, and no paint where
 * Ink's frame would differ or could not be erased exactly.
 */
import { afterEach, expect, test } from 'bun:test';
import { AppModel } from '../../src/tui/app-model.ts';
import { firstFrameLines, paintFirstFrame, takeover } from '../../src/tui/first-paint.ts';
import { paintEarly } from '../../src/tui/early-paint.ts';
import type { Terminal } from '../../src/tui/terminal.ts';
import { buildKeymap, DEFAULT_KEYMAP } from '../../src/tui/keymap.ts';
import { setColorLevel } from '../../src/tui/render/theme.ts';
import { FakeClient } from './fake-client.ts';
import { renderToFakeTty } from './fake-tty.tsx';

let unmount: (() => void) | undefined;
afterEach(() => {
  unmount?.();
  unmount = undefined;
  setColorLevel(0);
});

/** Ink's first frame as the terminal receives it, less the synchronized-output and cursor-hide wrappers. */
function inkFirstFrame(controller: FakeClient, columns: number, rows: number): { ink: string; pre: string[] | undefined } {
  const r = renderToFakeTty(controller, { columns, rows });
  unmount = r.unmount;
  // render() drew synchronously and nothing has happened since: the model is in the state Ink drew.
  const pre = firstFrameLines(r.app, columns, rows, {});
  // The first frame is the first synchronized-output block (bracketed paste is switched on after it).
  const all = r.stdout.writes.join('');
  const ink = all.slice(0, all.indexOf('\x1b[?2026l')).replace('\x1b[?2026h', '').replace('\x1b[?25l', '');
  return { ink, pre };
}

const states: [string, (c: FakeClient) => void][] = [
  ['a plain start', () => {}],
  ['no git branch, the OS sandbox on', (c) => (c.infoValue = { ...c.infoValue, gitBranch: undefined, osSandbox: true })],
  ['plan mode', (c) => (c.infoValue = { ...c.infoValue, permissionMode: 'plan' })],
  ['bypass permissions', (c) => (c.infoValue = { ...c.infoValue, permissionMode: 'bypassPermissions' })],
  ['a long folder name', (c) => (c.infoValue = { ...c.infoValue, cwd: `/work/${'deeply-nested-folder/'.repeat(3)}project-with-a-long-name` })],
  ['the trust question', (c) => (c.grants = ['Bash(npm:*)'])],
];

for (const colour of [0, 3] as const) {
  for (const [name, setup] of states) {
    test(`${name} (colour level ${colour}): the pre-paint is Ink's first frame, byte for byte`, () => {
      setColorLevel(colour);
      const controller = new FakeClient();
      setup(controller);
      const { ink, pre } = inkFirstFrame(controller, 100, 30);
      expect(pre).toBeDefined();
      expect(`${(pre ?? []).join('\n')}\n`).toBe(ink);
    });
  }
}

test('a narrow terminal: Ink wraps the banner, so nothing is pre-painted', () => {
  const { ink, pre } = inkFirstFrame(new FakeClient(), 60, 30);
  expect(pre).toBeUndefined();
  // What Ink drew is not the unwrapped lines a paint would have written.
  expect(ink).toContain('/help for commands · Esc interrupts · Shift-Tab changes the\n');
});

test('a terminal too short to hold the frame above its last row: nothing is pre-painted', () => {
  const controller = new FakeClient();
  // Banner (4 lines) and frame (4 lines).
  expect(inkFirstFrame(controller, 100, 9).pre).toHaveLength(8);
  unmount?.();
  expect(inkFirstFrame(controller, 100, 8).pre).toBeUndefined();
});

test('a resumed transcript, keymap warnings, a running first prompt, screen-reader mode: nothing is pre-painted', () => {
  const model = (c: FakeClient) => {
    const app = new AppModel({ client: c, keymap: DEFAULT_KEYMAP, exit: () => {} });
    app.start();
    return app;
  };
  const plain = model(new FakeClient());
  // The banner, a blank line, the rule, the prompt and the status line, as Ink draws them.
  expect(firstFrameLines(plain, 100, 30, {})).toEqual([
    '',
    'moat v0.1.0  claude-sonnet-4-5',
    '/work/project (main)',
    '/help for commands · Esc interrupts · Shift-Tab changes the permission mode',
    '',
    '─'.repeat(100),
    '>  Ask moat to do something · /help',
    `claude-sonnet-4-5 · project (main)${' '.repeat(34)}Shift-Tab: mode · ctx 0% · $0.00`,
  ]);
  expect(firstFrameLines(plain, 100, 30, { INK_SCREEN_READER: 'true' })).toBeUndefined();

  const resumed = new FakeClient();
  resumed.earlier = [
    { role: 'user', content: [{ type: 'text', text: 'hello' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'hi' }] },
  ];
  expect(firstFrameLines(model(resumed), 100, 30, {})).toBeUndefined();

  const warned = model(new FakeClient());
  for (const e of buildKeymap({ nosuchaction: 'ctrl+x' }).errors) warned.transcript.commit({ kind: 'notice', level: 'warning', text: e });
  expect(firstFrameLines(warned, 100, 30, {})).toBeUndefined();

  const running = new FakeClient();
  running.scripts.push([{ type: 'turn_started', turn: 1 }, { gate: 'never' }]);
  const prompted = model(running);
  prompted.setEditor({ value: 'fix the test', cursor: 12 });
  prompted.submit();
  expect(prompted.transcript.run.get().phase).not.toBe('idle');
  expect(firstFrameLines(prompted, 100, 30, {})).toBeUndefined();
  prompted.interrupt();
});

test('painting: raw mode first, then the cursor hidden and the lines; nothing when raw mode is refused or the frame cannot be drawn', () => {
  const app = new AppModel({ client: new FakeClient(), keymap: DEFAULT_KEYMAP, exit: () => {} });
  app.start();
  const log: string[] = [];
  const terminal = (columns: number, rows: number, refuse = false) => ({
    columns,
    rows,
    write: (s: string) => void log.push(`write ${JSON.stringify(s)}`),
    raw: () => {
      if (refuse) throw new Error('no raw mode');
      log.push('raw');
    },
  });

  expect(paintFirstFrame(app, terminal(100, 30, true), {})).toBeUndefined();
  expect(paintFirstFrame(app, terminal(100, 8), {})).toBeUndefined();
  expect(log).toEqual([]);

  const lines = firstFrameLines(app, 100, 30, {}) ?? [];
  const paint = paintFirstFrame(app, terminal(100, 30), {});
  // The rows below the start made (IND, scrolling as the frame would), back up in the same column, that place saved.
  const n = lines.length;
  expect(log).toEqual(['raw', `write ${JSON.stringify(`\x1b[?25l${'\x1bD'.repeat(n)}\x1b[${n}A\x1b7${lines.join('\n')}\n`)}`]);
  expect(paint).toEqual({ rows: n, lines });
});

/** A terminal that records what is written to it and its raw-mode switches. */
function recordingTerminal(columns: number, rows: number): { terminal: Terminal; log: string[] } {
  const log: string[] = [];
  return {
    log,
    terminal: {
      columns,
      rows,
      write: (text) => void log.push(`write ${text}`),
      raw: () => void log.push('raw'),
      handOver: () => void log.push('handOver'),
      restore: () => void log.push('restore'),
    },
  };
}

for (const [name, setup] of states.filter(([n]) => n !== 'the trust question')) {
  test(`${name}: the frame drawn before the session exists is the one drawn from the UI's model`, () => {
    const controller = new FakeClient();
    setup(controller);
    const app = new AppModel({ client: controller, keymap: DEFAULT_KEYMAP, exit: () => {} });
    app.start();
    const { terminal, log } = recordingTerminal(100, 30);
    const early = paintEarly(controller.info(), undefined, terminal, {});
    early?.release();
    expect(early?.paint.lines).toEqual(firstFrameLines(app, 100, 30, {}));
    expect(log[0]).toBe('raw');
    app.transcript.dispose();
  });
}

test('no early frame where the keymap has a warning (it goes into the transcript) or the terminal is too small', () => {
  const info = new FakeClient().info();
  const { terminal, log } = recordingTerminal(100, 30);
  expect(paintEarly(info, { submit: 'not-a-key!!' }, terminal, {})).toBeUndefined();
  expect(paintEarly(info, undefined, recordingTerminal(100, 8).terminal, {})).toBeUndefined();
  expect(paintEarly(info, undefined, undefined, {})).toBeUndefined();
  expect(log).toEqual([]);
});

test('an abandoned early frame is erased and the terminal given back, once, and its signal handlers go', () => {
  const { terminal, log } = recordingTerminal(100, 30);
  const early = paintEarly(new FakeClient().info(), undefined, terminal, {});
  expect(early).toBeDefined();
  const before = process.listenerCount('SIGTERM');
  early?.abandon();
  early?.abandon();
  expect(log.slice(2)).toEqual(['restore', `write ${takeover()}\x1b[?25h`]);
  // Its signal handlers went with it.
  expect(process.listenerCount('SIGTERM')).toBe(before - 1);
});
