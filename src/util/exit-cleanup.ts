/**
 * Clean-up that must run however moat ends: at a normal exit, and when a
 * signal that nothing else in moat handles (SIGTERM, SIGHUP, SIGINT) would
 * otherwise kill it without an 'exit' event. The signal is then raised again
 * with the default action restored, so moat still ends as killed by it (the
 * same status a parent saw before).
 */
const SIGNALS = ['SIGTERM', 'SIGHUP', 'SIGINT'] as const;
type EndSignal = (typeof SIGNALS)[number];

const cleanups = new Set<() => void>();
let installed = false;

function runAll(): void {
  for (const fn of [...cleanups]) {
    cleanups.delete(fn);
    try {
      fn();
    } catch {
      // One failed removal must not keep the others from running.
    }
  }
}

const handlers = new Map<EndSignal, () => void>(
  SIGNALS.map((signal) => [
    signal,
    () => {
      // Another handler owns this signal (the TUI, -p, stream-json): it ends moat through process.exit,
      // or keeps it running (a first Ctrl-C interrupts a turn); the exit hook covers both.
      if (process.listenerCount(signal) > 1) return;
      runAll();
      uninstall();
      process.kill(process.pid, signal);
    },
  ]),
);

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runAll);
  for (const [signal, handler] of handlers) process.on(signal, handler);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off('exit', runAll);
  for (const [signal, handler] of handlers) process.off(signal, handler);
}

/**
 * Runs `fn` (synchronous: nothing else runs after a signal) when moat ends,
 * unless the returned function is called first. With nothing registered, no
 * signal handler stays installed.
 */
export function atExit(fn: () => void): () => void {
  cleanups.add(fn);
  install();
  return () => {
    cleanups.delete(fn);
    if (cleanups.size === 0) uninstall();
  };
}
