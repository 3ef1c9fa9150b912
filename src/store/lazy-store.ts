/** A store that opens its database on first use: start-up paths that may never need it (or need it later) do not pay for the open. */
// The store's code is imported, not required on first use: loading it before -p's first request measured no cost
// (scripts/bench/startup.ts, interleaved n=20: first byte 97.0 -> 94.9 ms, CPU 90.0 -> 84.1 ms, in the noise).
import { openStore, type Store } from './store.ts';

/**
 * The store at `path`, opened (migrations, WAL) when a repository is first
 * used or `open()` is called. `path` is answered without opening, and closing
 * a store that never opened does nothing. A failed open throws from that first
 * use and is tried again on the next.
 *
 * Writes given to `afterOpen` wait for the open and are done, in order, before
 * whatever use opened it: whoever touches the store first (a session's first
 * request going out, a checkpoint, a query) finds them on disk.
 */
export function lazyStore(path: string, open: (path: string) => Store = (p) => openStore(p)): Store {
  let store: Store | undefined;
  let closed = false;
  const waiting: ((s: Store) => void)[] = [];
  const opened = (): Store => {
    const s = (store ??= open(path));
    // One that fails stays first in line (with those after it) and is tried again on the next use.
    while (waiting.length > 0) {
      waiting[0]!(s);
      waiting.shift();
    }
    return s;
  };
  return new Proxy({} as Store, {
    get(_, key: keyof Store) {
      if (key === 'path') return path;
      if (key === 'close') return () => ((closed = true), store?.close());
      // After close, open() does nothing: a session's late "open now" must not make a database its owner already gave up.
      if (key === 'open') return () => void (closed ? undefined : opened());
      if (key === 'afterOpen') return (write: (s: Store) => void) => (store === undefined ? waiting.push(write) : write(opened()));
      const s = opened();
      const v = s[key];
      return typeof v === 'function' ? v.bind(s) : v;
    },
  });
}
