/**
 * A tiny external store for `useSyncExternalStore`. The agent's events arrive
 * outside React; keeping state here (not in component state) lets each
 * component subscribe to exactly the slice it draws, so a text delta never
 * re-renders the `<Static>` parent (ink-bun-spike §2: that forces unthrottled
 * full renders).
 */
export interface Store<T> {
  get(): T;
  set(next: T): void;
  update(fn: (current: T) => T): void;
  subscribe(listener: () => void): () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      for (const l of [...listeners]) l();
    },
    update(fn) {
      this.set(fn(value));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
