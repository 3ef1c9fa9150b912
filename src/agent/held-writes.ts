/**
 * A session's store, with writes that can be held: a new session's first
 * writes (its row, title, status and first message) wait until its first
 * request is on its way, so the database opens and writes while the request
 * travels, not before it. Any use of the store through `store()` writes the
 * held ones first, in order.
 */
import type { Store } from '../store/index.ts';

export class HeldWrites {
  /** Writes waiting, in order; undefined once written (or when nothing was ever held). */
  private held: ((store: Store) => void)[] | undefined;

  constructor(private readonly db: Store) {}

  /** From now on writes wait, this one first, until `store()` is next used. */
  hold(first: (store: Store) => void): void {
    this.held = [first];
  }

  /** Whether writes are waiting. */
  get holding(): boolean {
    return this.held !== undefined;
  }

  /** The store, with the held writes written first: every read and every unheld write goes through here. */
  store(): Store {
    const held = this.held;
    if (held !== undefined) {
      // Each one dropped once written: when the database cannot be opened, the error reaches the caller and the rest stay held.
      for (let op = held[0]; op !== undefined; op = held[0]) {
        op(this.db);
        held.shift();
      }
      this.held = undefined;
    }
    return this.db;
  }

  /** A write that waits with the held ones while there are any. */
  write(op: (store: Store) => void): void {
    if (this.held === undefined) op(this.db);
    else this.held.push(op);
  }

  /** The held writes now; a failure is left to the next use of the store to report. */
  release(): void {
    try {
      this.store();
    } catch {
      // The run's next write (its answer, its usage) meets the same error and ends the run with it.
    }
  }
}
