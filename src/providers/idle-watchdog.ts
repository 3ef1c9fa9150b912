/**
 * Fires once when nothing has happened for `ms`. Providers touch it on every
 * chunk of bytes; SDK request timeouts only cover the wait for headers, so a
 * stream that goes quiet after them would otherwise hang forever.
 */
export class IdleWatchdog {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private state: 'running' | 'paused' | 'done' = 'running';

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {
    this.arm();
  }

  /** Something arrived: start the quiet period again. */
  touch(): void {
    if (this.state === 'running') this.arm();
  }

  /**
   * Stop counting while the consumer holds an event: time the consumer spends
   * is not the server's silence.
   */
  pause(): void {
    if (this.state !== 'running') return;
    this.state = 'paused';
    clearTimeout(this.timer);
  }

  resume(): void {
    if (this.state !== 'paused') return;
    this.state = 'running';
    this.arm();
  }

  stop(): void {
    this.state = 'done';
    clearTimeout(this.timer);
  }

  private arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.state = 'done';
      this.onIdle();
    }, this.ms);
  }
}
