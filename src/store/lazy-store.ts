/** A store that opens its database on first use: start-up paths that may never need it (or need it later) do not pay for the open. */
import { openStore, type Store } from './store.ts';

/**
 * The store at `path`, opened (migrations, WAL) when a repository is first
 * used. `path` is answered without opening, and closing a store that never
 * opened does nothing. A failed open throws from that first use and is tried
 * again on the next.
 */
export function lazyStore(path: string, open: (path: string) => Store = openStore): Store {
  let store: Store | undefined;
  const opened = () => (store ??= open(path));
  return new Proxy({} as Store, {
    get(_, key: keyof Store) {
      if (key === 'path') return path;
      if (key === 'close') return () => store?.close();
      const s = opened();
      const v = s[key];
      return typeof v === 'function' ? v.bind(s) : v;
    },
  });
}
