/** WASI host: the per-run state every interface shares. */
import type { Limits } from '../types.ts';
import { LimitError, limitMessages } from './errors.ts';

/**
 * The per-run state every host interface shares: the deadline and the limits.
 * One is made per invocation, so nothing leaks from one run into the next.
 */
export class HostContext {
  readonly limits: Limits;
  /** `performance.now()` value after which every host call fails the run. */
  readonly deadline: number;
  private readonly signal: AbortSignal | undefined;

  constructor(limits: Limits, signal?: AbortSignal) {
    this.limits = limits;
    this.deadline = performance.now() + limits.timeoutMs;
    this.signal = signal;
  }

  /**
   * Called at the top of every host call. A guest that spins without calling
   * the host is bounded by fuel instead (and by SIGKILL in a child).
   */
  checkDeadline(): void {
    if (performance.now() > this.deadline) throw this.timeout();
    if (this.signal?.aborted === true) throw new LimitError('timeout', 'aborted');
  }

  /** Milliseconds left before the deadline (never negative). */
  remainingMs(): number {
    return Math.max(0, this.deadline - performance.now());
  }

  timeout(): LimitError {
    return new LimitError('timeout', limitMessages.timeout(this.limits.timeoutMs));
  }
}
