/**
 * Fires once when nothing has happened for `ms`. Providers touch it on every
 * chunk of bytes; SDK request timeouts only cover the wait for headers, so a
 * stream that goes quiet after them would otherwise hang forever.
 *
 * Touching only records the time: one timer runs per quiet period and, when
 * it comes due, re-arms for whatever is left since the last touch. Re-arming
 * a timer on every chunk and every event cost more than the rest of an
 * adapter's per-event work (scripts/bench/chat-adapter.ts).
 */
export class IdleWatchdog {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private state: 'running' | 'paused' | 'done' = 'running';
  private last = performance.now();

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {
    this.arm(ms);
  }

  /** Something arrived: start the quiet period again. */
  touch(): void {
    if (this.state === 'running') this.last = performance.now();
  }

  /**
   * Stop counting while the consumer holds an event: time the consumer spends
   * is not the server's silence.
   */
  pause(): void {
    if (this.state === 'running') this.state = 'paused';
  }

  resume(): void {
    if (this.state !== 'paused') return;
    this.state = 'running';
    this.last = performance.now();
  }

  stop(): void {
    this.state = 'done';
    clearTimeout(this.timer);
  }

  private arm(delay: number): void {
    this.timer = setTimeout(() => this.due(), delay);
  }

  private due(): void {
    if (this.state === 'done') return;
    // Paused: the quiet period starts again on resume; check back a full period later.
    if (this.state === 'paused') return this.arm(this.ms);
    const quiet = performance.now() - this.last;
    if (quiet < this.ms) return this.arm(this.ms - quiet);
    this.state = 'done';
    this.onIdle();
  }
}
