/**
 * Keeps a command's output bounded however much it prints: the first
 * `headMax` characters and a rolling tail of `tailMax`, with a count of what
 * fell in between. The start usually says what ran, the end how it ended.
 */
export class OutputBuffer {
  private head = '';
  private tail = '';
  private total = 0;

  constructor(
    private readonly headMax: number,
    private readonly tailMax: number,
  ) {}

  push(chunk: string): void {
    if (chunk === '') return;
    this.total += chunk.length;
    let rest = chunk;
    if (this.head.length < this.headMax) {
      const room = this.headMax - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (rest === '') return;
    this.tail += rest;
    // Trim in batches, not on every chunk, so a chatty command costs O(n) overall.
    if (this.tail.length > this.tailMax * 2) this.tail = this.tail.slice(-this.tailMax);
  }

  get length(): number {
    return this.total;
  }

  /** The output for the model; says how many characters were cut from the middle. */
  text(): string {
    const kept = this.head.length + Math.min(this.tail.length, this.tailMax);
    if (this.total <= kept) return this.head + this.tail;
    const cut = this.total - kept;
    return `${this.head}\n\n[… ${cut} characters of output cut …]\n\n${this.tail.slice(-this.tailMax)}`;
  }

  /** The last `n` characters, for live display. */
  lastChars(n: number): string {
    if (this.tail.length >= n) return this.tail.slice(-n);
    const fromHead = n - this.tail.length;
    const gap = this.total > this.head.length + this.tail.length;
    // Only stitch head and tail together when nothing was dropped between them.
    return (gap ? '' : this.head.slice(-fromHead)) + this.tail;
  }
}
