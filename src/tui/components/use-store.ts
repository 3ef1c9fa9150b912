/** React hooks over the TUI's stores. */
import { useCallback, useSyncExternalStore } from 'react';
import type { Store } from '../state/store.ts';

/** The whole value of a store; re-renders when it changes. */
export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

/**
 * A value computed from several stores. Re-renders only when the computed
 * value changes (compared with Object.is), so return primitives.
 */
export function useDerived<T>(stores: readonly Store<unknown>[], compute: () => T): T {
  const subscribe = useCallback(
    (listener: () => void) => {
      const offs = stores.map((s) => s.subscribe(listener));
      return () => {
        for (const off of offs) off();
      };
    },
    // The store objects live as long as the app; their identity is stable.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    stores,
  );
  return useSyncExternalStore(subscribe, compute, compute);
}
