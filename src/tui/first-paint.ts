/**
 * The first frame drawn straight to the terminal before Ink loads: the same
 * lines Ink's first frame will show (the banner, the prompt, the status line),
 * built by the same functions from the same model, so the UI is on screen
 * while Ink, React and yoga load (~35 ms). Ink's first write then starts by
 * going back to where the pre-paint started and erasing from there
 * (`takeover`), so what stays on screen, and in scrollback, is Ink's frame
 * alone, starting where it would have started.
 */
import { bottomLines, liveLines, type FrameSource } from './components/layout.ts';
import { describeChord } from './keymap.ts';
import { renderItem } from './render/items.ts';
import { stringWidth } from './render/wrap.ts';
import type { Terminal } from './terminal.ts';

/** What the pre-paint drew: Ink's first write goes back to where it started (takeover). */
export interface FirstPaint {
  /** Lines drawn, each one row. */
  rows: number;
  /** What they were: the frame Ink's first one is checked against when it was drawn before the session existed (early-paint.ts). */
  lines: readonly string[];
}

const HIDE_CURSOR = '\x1b[?25l';
/** DECSC and DECRC: save and restore the cursor's position on screen. */
const SAVE_CURSOR = '\x1b7';
const RESTORE_CURSOR = '\x1b8';
/** IND: one row down, scrolling at the bottom, in the same column (a newline would also go to column 0). */
const INDEX = '\x1bD';

/**
 * The lines of Ink's first frame (`<Static>` output, then the frame), or
 * undefined where drawing them here could differ from what Ink draws or could
 * not be erased exactly: a running turn (its spinner counts time), anything in
 * the transcript beyond the banner (a resumed session, keymap warnings), a live
 * cell, a line Ink would wrap, a frame that does not fit above the last row
 * (Ink's full-screen path, and rows scrolled off the top cannot be erased).
 */
export function firstFrameLines(app: FrameSource, columns: number, rows: number, env: Record<string, string | undefined> = process.env): string[] | undefined {
  // Screen-reader mode renders a different frame (plain text, its own wrapping).
  if (env.INK_SCREEN_READER === 'true') return undefined;
  if (!(columns > 0 && rows > 0)) return undefined;
  const t = app.transcript;
  if (t.run.get().phase !== 'idle') return undefined;
  const items = t.committed.get().items;
  if (items.length !== 1 || items[0]?.kind !== 'banner') return undefined;
  const now = Date.now();
  if (liveLines(app, columns, rows, now).length > 0) return undefined;
  // As static-log.tsx renders an item (the hint only shows on thinking items).
  const hint = `${describeChord(app.keymap.expand[0] ?? 'ctrl+o').toLowerCase()} to expand`;
  const lines = [...items.flatMap((item) => renderItem(item, { width: columns, cwd: app.ui.get().info.cwd, now }, hint)), ...bottomLines(app, columns, rows, now, 0)];
  if (lines.length >= rows) return undefined;
  if (lines.some((l) => stringWidth(l) > columns)) return undefined;
  // Ink trims each line's end; trailing spaces show nothing, so this only keeps the bytes alike.
  return lines.map((l) => l.trimEnd());
}

/**
 * Draws the first frame now, if it can be drawn exactly (see firstFrameLines),
 * and puts the terminal in raw mode first: keys typed from here on wait in the
 * terminal's input buffer, unechoed, until Ink reads them.
 */
export function paintFirstFrame(app: FrameSource, terminal: Pick<Terminal, 'columns' | 'rows' | 'write' | 'raw'>, env?: Record<string, string | undefined>): FirstPaint | undefined {
  const columns = terminal.columns;
  const lines = firstFrameLines(app, columns, terminal.rows, env);
  if (!lines) return undefined;
  try {
    terminal.raw();
  } catch {
    // Without raw mode a key typed now would be echoed into the frame: no paint.
    return undefined;
  }
  // Where the frame starts is saved as a position on screen, so the rows below it are made first (scrolling as the
  // frame would) and the cursor goes back up, in its column: the start need not be a line's beginning (output left
  // without a final newline stays). Ink hides the cursor on its first frame too; each line ends with a newline, as
  // Ink's frame does.
  const n = lines.length;
  terminal.write(`${HIDE_CURSOR}${INDEX.repeat(n)}\x1b[${n}A${SAVE_CURSOR}${lines.join('\n')}\n`);
  return { rows: n, lines };
}

/**
 * Prefixed to Ink's first write: back to where the pre-paint started, and
 * erase from there down, so Ink's frame is written where, and from where, it
 * would have been without one. The position is absolute: nothing scrolls
 * between the paint and this (the paint made its rows first), unless the
 * terminal is resized in those milliseconds.
 */
export function takeover(): string {
  return `${RESTORE_CURSOR}\x1b[J`;
}
