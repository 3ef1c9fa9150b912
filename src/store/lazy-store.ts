/** A store that opens its database on first use: start-up paths that may never need it (or need it later) do not pay for the open. */
import type { Store } from './store.ts';

/**
 * The store's code (SQLite, the repositories, the migrations' SQL) is
 * required with the first use, not imported: `-p` opens the database only
 * once its first request is on its way, and loading that code is part of the open.
 */
const openLazily = (path: string): Store => (require('./store.ts') as typeof import('./store.ts')).openStore(path);

/**
 * The store at `path`, opened (migrations, WAL) when a repository is first
 * used. `path` is answered without opening, and closing a store that never
 * opened does nothing. A failed open throws from that first use and is tried
 * again on the next.
 */
export function lazyStore(path: string, open: (path: string) => Store = openLazily): Store {
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
