/**
 * The first frame drawn before the session is assembled: `moat` in a
 * terminal knows all its first frame shows (the banner's model, folder and
 * branch; the prompt; the status line) once the config is read, while the
 * session, its tools, the TUI client and the UI's model load behind it. The
 * frame is built by the same functions Ink's is, from a model of the first
 * frame alone; runTui checks Ink's first frame against it and erases it at once
 * if they differ (a warning found meanwhile, a server asking for approval).
 */
import { Transcript } from './state/transcript.ts';
import { createStore } from './state/store.ts';
import { Elicitations } from './state/elicitations.ts';
import { initialUi } from './state/ui-state.ts';
import { buildKeymap, type KeymapOverrides } from './keymap.ts';
import type { TuiInfo } from './views.ts';
import { paintFirstFrame, takeover, type FirstPaint } from './first-paint.ts';
import { openTerminal, type Terminal } from './terminal.ts';

/** A frame on screen before the UI exists, and the terminal it holds in raw mode. */
export interface EarlyPaint {
  readonly terminal: Terminal;
  readonly paint: FirstPaint;
  /**
   * The UI will not start (a set-up error): the frame is erased and the
   * terminal's modes given back, so the error's line is all that shows. Once.
   */
  abandon(): void;
  /** runTui's own signal handlers are in place: the early frame's go. */
  release(): void;
}

/** Until runTui takes over, a signal erases the frame and gives the terminal back before moat ends, as runTui's handlers do. */
const SIGNALS = [
  ['SIGTERM', 143],
  ['SIGHUP', 129],
  ['SIGINT', 130],
] as const;

const SHOW_CURSOR = '\x1b[?25h';

/**
 * Draws the first frame of a new session whose info is `info`, if it can be
 * drawn exactly (first-paint.ts); undefined otherwise (no terminal, a keymap
 * warning that would be in the transcript, a frame that does not fit).
 */
export function paintEarly(
  info: TuiInfo,
  keymapOverrides: KeymapOverrides | Record<string, unknown> | undefined,
  terminal: Terminal | undefined = openTerminal(),
  env?: Record<string, string | undefined>,
): EarlyPaint | undefined {
  const { keymap, errors } = buildKeymap(keymapOverrides);
  // runTui commits each keymap warning to the transcript: a frame of the banner alone would differ.
  if (errors.length > 0) return undefined;
  if (!terminal) return undefined;
  let abandoned = false;
  // Listening before the frame is written: a signal that comes after the write would otherwise end moat with the frame on screen.
  const handlers = SIGNALS.map(([signal, code]) => {
    const handler = () => {
      abandon();
      process.exit(code);
    };
    process.on(signal, handler);
    return { signal, handler };
  });
  const release = () => {
    for (const { signal, handler } of handlers) process.off(signal, handler);
  };
  const abandon = () => {
    if (abandoned) return;
    abandoned = true;
    release();
    try {
      terminal.restore();
      terminal.write(`${takeover()}${SHOW_CURSOR}`);
    } catch {
      // The terminal went away: nothing left to give back.
    }
  };
  const transcript = new Transcript();
  transcript.commit({ kind: 'banner', info });
  // No server has asked anything yet: none is connected before the session exists.
  const elicitations = new Elicitations({ blocked: () => false, onWithdrawn: () => {} });
  const paint = paintFirstFrame({ transcript, ui: createStore(initialUi(info)), keymap, elicitations }, terminal, env);
  transcript.dispose();
  if (!paint) {
    release();
    return undefined;
  }
  return { terminal, paint, abandon, release };
}
