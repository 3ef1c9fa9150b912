/** A store that opens its database on first use and writes a session's records behind its requests. */
// The store's code is imported, not required on first use: loading it before -p's first request measured no cost
// (scripts/bench/startup.ts, interleaved n=20: first byte 97.0 -> 94.9 ms, CPU 90.0 -> 84.1 ms, in the noise).
import { openStore, type Store } from './store.ts';

/**
 * How long a record given to `later` may wait. Only a process killed without
 * a chance to run its exit handlers (SIGKILL, a power cut) can lose it, and
 * only within this window: the run's end flushes the store, and an exit
 * (`process.exit` after a second Ctrl-C, an uncaught error) writes what waits.
 */
export const WRITE_WITHIN_MS = 100;

/**
 * The store at `path`, opened (migrations, WAL) at its first flush. `path` is
 * answered without opening, and closing a store that never opened and has
 * nothing to write does nothing.
 *
 * Records given to `later` are kept, in order, and written at the first of:
 *  - `flushSoon()` once the database is open: a session calls it when a
 *    request is on its way, so a step's records are written while the model
 *    answers, not between its answer and the next request;
 *  - any other use of the store (a read finds every record given before it);
 *    a session flushes before a call that acts (tool-dispatch.ts);
 *  - `flush()` or `close()`;
 *  - `writeWithinMs` after the first of them was given.
 * The open itself waits for the timer or a use, not for `flushSoon`: it costs
 * ~10 ms of CPU, and a request answered at once would wait for it.
 * A failed open or write is thrown at that use (the timer keeps it for the
 * next one); the failed record stays first in line and is tried again.
 */
export function lazyStore(path: string, open: (path: string) => Store = (p) => openStore(p), writeWithinMs = WRITE_WITHIN_MS): Store {
  let store: Store | undefined;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waiting: ((s: Store) => void)[] = [];
  const opened = (): Store => {
    const s = (store ??= open(path));
    if (waiting.length === 0) return s;
    clearTimeout(timer);
    timer = undefined;
    // One that fails stays first in line (with those after it) and is tried again on the next use.
    while (waiting.length > 0) {
      waiting[0]!(s);
      waiting.shift();
    }
    process.off('exit', quietly);
    return s;
  };
  // After close nothing opens again: a session's late flush must not make a database its owner already gave up.
  const flush = (): void => void (closed ? undefined : opened());
  function quietly(): void {
    try {
      flush();
    } catch {
      // thrown again at the next use
    }
  }
  return new Proxy({} as Store, {
    get(_, key: keyof Store) {
      if (key === 'path') return path;
      if (key === 'close')
        return () => {
          if (waiting.length > 0) quietly();
          closed = true;
          store?.close();
        };
      if (key === 'flush') return flush;
      if (key === 'flushSoon') return () => void (store !== undefined && waiting.length > 0 ? setImmediate(quietly) : undefined);
      if (key === 'later')
        return (write: (s: Store) => void) => {
          if (waiting.push(write) === 1) process.on('exit', quietly);
          timer ??= setTimeout(() => {
            timer = undefined;
            quietly();
          }, writeWithinMs);
        };
      const s = opened();
      const v = s[key];
      return typeof v === 'function' ? v.bind(s) : v;
    },
  });
}
