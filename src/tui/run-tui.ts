/**
 * Starts the interactive UI and owns the terminal while it runs. Whatever
 * ends the process — /exit, Ctrl-C twice, an uncaught exception, an unhandled
 * rejection, SIGTERM — the terminal is given back the same way: Ink
 * unmounted, raw mode off, cursor visible, bracketed paste off, the session
 * saved and closed (ink-bun-spike §6: Bun keeps running after an uncaught
 * error while a top-level await is pending, and leaves the cursor hidden).
 * Ink itself loads here only after the first frame is on screen
 * (first-paint.ts); this module does not import it.
 */
import type { Instance } from 'ink';
import { AppModel } from './app-model.ts';
import type { TuiClient } from './session-port.ts';
import { firstFrameLines, paintFirstFrame, takeover, type FirstPaint } from './first-paint.ts';
import type { EarlyPaint } from './early-paint.ts';
import { openTerminal, type Terminal } from './terminal.ts';
import { buildKeymap, type KeymapOverrides } from './keymap.ts';
import { setValue } from './state/line-editor.ts';

export interface RunTuiOptions {
  /** `[keymap]` from config. */
  keymap?: KeymapOverrides | Record<string, unknown>;
  /** `moat "task"`: sent as soon as the UI is up. */
  initialPrompt?: string;
  /** Throw once the UI is up: the crash path's end-to-end test (set by the test entry's composition options only). */
  injectCrash?: boolean;
  /**
   * Set-up the first frame does not need (the store, the session, the WebAssembly tools), run once that
   * frame is on screen; if it fails, the UI closes with its message, as a failure to start.
   */
  afterFirstFrame?: () => Promise<void>;
  /** The first frame, drawn before the session was assembled (early-paint.ts): kept if it is Ink's first frame, erased at once if not. */
  early?: EarlyPaint;
}

const RESTORE = '\x1b[?25h\x1b[?2004l';

function safeCount(fn: () => number): number {
  try {
    return fn();
  } catch {
    return 0;
  }
}

export async function runTui(client: TuiClient, opts: RunTuiOptions = {}): Promise<number> {
  const { keymap, errors } = buildKeymap(opts.keymap);
  let resolveExit: (code: number) => void = () => {};
  const exited = new Promise<number>((resolve) => {
    resolveExit = resolve;
  });
  let done = false;

  const app = new AppModel({ client, keymap, exit: () => finish(0) });
  app.start();
  for (const e of errors) app.transcript.commit({ kind: 'notice', level: 'warning', text: e });

  if (opts.initialPrompt?.trim()) {
    app.setEditor(setValue(opts.initialPrompt));
    app.submit();
  }

  let inst: Instance | undefined;
  let paint: FirstPaint | undefined;
  let terminal: Terminal | undefined;
  /** The pre-paint put the terminal in raw mode (through `terminal`, until Ink's stdin takes it over). */
  let held = false;
  /** Raw mode belongs to process.stdin (Ink's) from here on. */
  let handedOver = false;

  function restoreTerminal(): void {
    try {
      inst?.unmount();
    } catch {
      // Half-torn-down Ink: restoring the tty below is what matters.
    }
    try {
      // Leaving before Ink took the terminal: the modes the pre-paint changed go back the way it changed them.
      if (held && !handedOver) terminal?.restore();
      if (process.stdin.isTTY) process.stdin.setRawMode(false);
    } catch {
      // stdin already closed
    }
    try {
      // Leaving before Ink drew: the pre-painted frame promised a UI that never came, so it goes.
      process.stdout.write((!inst && paint ? takeover() : '') + RESTORE);
    } catch {
      // stdout gone (terminal closed): nothing to restore
    }
  }

  function finish(code: number, message?: string): void {
    if (done) return;
    done = true;
    try {
      app.interrupt();
      app.transcript.dispose();
    } catch {
      // best effort: we are leaving
    }
    restoreTerminal();
    if (message) process.stderr.write(message);
    // Background sub-agents are stopped cleanly (their worktrees committed) before the store closes.
    const going = safeCount(() => client.queries.subagents().filter((a) => a.status === 'running' || a.status === 'queued').length);
    if (going > 0) process.stderr.write(`moat: stopping ${going} sub-agent${going === 1 ? '' : 's'}…\n`);
    client.lifecycle
      .shutdown()
      .catch((e: unknown) => {
        process.stderr.write(`moat: could not save the session: ${e instanceof Error ? e.message : String(e)}\n`);
      })
      .finally(() => {
        process.stdin.pause();
        resolveExit(code);
      });
  }

  function crash(e: unknown): void {
    const detail = e instanceof Error ? (e.stack ?? e.message) : String(e);
    try {
      client.lifecycle.log(`fatal: ${detail}`);
    } catch {
      // the log is a courtesy
    }
    finish(1, `moat: internal error: ${e instanceof Error ? e.message : String(e)} (details in the log)\n`);
  }

  const onSignal = (code: number) => () => finish(code);
  const onTerm = onSignal(143);
  const onHup = onSignal(129);
  const onInt = onSignal(130);
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onHup);
  process.on('SIGINT', onInt);
  opts.early?.release();

  // The first frame, before Ink loads (the handlers above already give the terminal back): from here on
  // the terminal is in raw mode.
  if (opts.early) {
    terminal = opts.early.terminal;
    held = true;
    paint = keptEarly(app, opts.early);
  } else {
    terminal = openTerminal();
    paint = terminal ? paintFirstFrame(app, terminal) : undefined;
    held = paint !== undefined;
  }

  try {
    // Ink, React and yoga load while the pre-painted frame is on screen; a signal meanwhile ends it all the same.
    const { mountApp } = await import('./mount.tsx');
    if (!done) {
      // Ink's stdin takes raw mode over before Ink reads it; the keys typed meanwhile are still waiting.
      if (held) {
        terminal?.handOver();
        handedOver = true;
      }
      inst = mountApp(app, (e) => crash(e), paint);
    }

    // Ink drew the first frame synchronously inside render(); the next turn of the event loop is after it.
    const afterFirstFrame = opts.afterFirstFrame;
    if (afterFirstFrame && !done) {
      setImmediate(() => {
        afterFirstFrame().catch((e: unknown) => finish(1, `moat: ${e instanceof Error ? e.message : String(e)}\n`));
      });
    }

    if (opts.injectCrash === true) {
      setTimeout(() => {
        throw new Error('injected crash (test entry)');
      }, 300);
    }
    return await exited;
  } catch (e) {
    // Ink failed to load or mount: the terminal is given back before the error goes up (the caller shuts the client down).
    if (!done) {
      done = true;
      restoreTerminal();
    }
    throw e;
  } finally {
    process.off('uncaughtException', crash);
    process.off('unhandledRejection', crash);
    process.off('SIGTERM', onTerm);
    process.off('SIGHUP', onHup);
    process.off('SIGINT', onInt);
  }
}

/**
 * The early frame when Ink's first frame is the same, line for line; when it
 * is not (a warning or a question arrived while the session was assembled),
 * it is erased now, so only Ink's frame is ever seen as the UI.
 */
function keptEarly(app: AppModel, early: EarlyPaint): FirstPaint | undefined {
  const { terminal, paint } = early;
  const lines = firstFrameLines(app, terminal.columns, terminal.rows);
  if (lines !== undefined && lines.length === paint.lines.length && lines.every((l, i) => l === paint.lines[i])) return paint;
  terminal.write(takeover());
  return undefined;
}
