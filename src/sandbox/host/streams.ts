/** WASI host: wasi:io streams, pollables and errors. */
import type { HostContext } from './context.ts';
import { LimitError, limitMessages } from './errors.ts';

/**
 * wasi:io — streams, pollables and the error resource. The generated glue
 * checks resources with `instanceof` against the classes we export, so these
 * classes are the host's side of every stream the guest sees (stdio, files,
 * HTTP bodies). Everything is synchronous: a run never yields to the event loop.
 */

/** The `stream-error` variant, thrown as a non-Error so jco lowers it into the WIT result. */
export type StreamError = { tag: 'closed' } | { tag: 'last-operation-failed'; val: IoError };

const CLOSED: StreamError = { tag: 'closed' };

export class IoError {
  readonly message: string;
  /** The wasi:filesystem error code, when the failure came from the filesystem. */
  readonly fsCode: string | undefined;
  constructor(message: string, fsCode?: string) {
    this.message = message;
    this.fsCode = fsCode;
  }
  toDebugString(): string {
    return this.message;
  }
}

export function failed(message: string, fsCode?: string): StreamError {
  return { tag: 'last-operation-failed', val: new IoError(message, fsCode) };
}

/** Everything is ready at once, except a timer, which blocks the thread until it is due (or the deadline). */
export class Pollable {
  /** `performance.now()` value at which it becomes ready; 0 for "ready now". */
  private readonly dueAt: number;
  private readonly ctx: HostContext | undefined;
  constructor(dueAt = 0, ctx?: HostContext) {
    this.dueAt = dueAt;
    this.ctx = ctx;
  }
  ready(): boolean {
    return performance.now() >= this.dueAt;
  }
  block(): void {
    const wait = this.dueAt - performance.now();
    if (wait <= 0) return;
    if (this.ctx !== undefined) {
      // Sleeping past the deadline would only delay the inevitable: sleep to it and stop.
      if (performance.now() + wait > this.ctx.deadline) {
        Bun.sleepSync(this.ctx.remainingMs());
        throw this.ctx.timeout();
      }
    }
    Bun.sleepSync(wait);
  }
  /** Milliseconds until ready. */
  waitMs(): number {
    return Math.max(0, this.dueAt - performance.now());
  }
}

const READY = new Pollable();

/** `poll(list)`: blocks until the earliest is ready, returns the indices of the ready ones. */
export function poll(list: Pollable[]): Uint32Array {
  if (list.length === 0) throw new LimitError('timeout', 'poll on an empty list would block forever');
  let soonest = list[0] as Pollable;
  for (const p of list) if (p.waitMs() < soonest.waitMs()) soonest = p;
  soonest.block();
  const ready: number[] = [];
  list.forEach((p, i) => {
    if (p.ready()) ready.push(i);
  });
  return Uint32Array.from(ready);
}

/** Where an InputStream's bytes come from. Returns `undefined` at end of stream. */
export interface ByteSource {
  read(max: number): Uint8Array | undefined;
}

export class InputStream {
  private readonly source: ByteSource;
  private readonly ctx: HostContext;
  constructor(source: ByteSource, ctx: HostContext) {
    this.source = source;
    this.ctx = ctx;
  }
  read(len: bigint): Uint8Array {
    this.ctx.checkDeadline();
    const chunk = this.source.read(Number(len > 1_048_576n ? 1_048_576n : len));
    if (chunk === undefined) throw CLOSED;
    return chunk;
  }
  blockingRead(len: bigint): Uint8Array {
    return this.read(len);
  }
  skip(len: bigint): bigint {
    return BigInt(this.read(len).length);
  }
  blockingSkip(len: bigint): bigint {
    return this.skip(len);
  }
  subscribe(): Pollable {
    return READY;
  }
}

/** A fixed buffer (stdin, an HTTP response body). */
export class BufferSource implements ByteSource {
  private offset = 0;
  private readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }
  read(max: number): Uint8Array | undefined {
    if (this.offset >= this.bytes.length) return max === 0 ? new Uint8Array(0) : undefined;
    const chunk = this.bytes.subarray(this.offset, this.offset + max);
    this.offset += chunk.length;
    return chunk;
  }
}

/** Where an OutputStream's bytes go. Throws a StreamError (or a LimitError) on failure. */
export interface ByteSink {
  write(bytes: Uint8Array): void;
}

/** How much the guest may write before the next check-write; big enough to need few round trips. */
const WRITE_BUDGET = 1n << 20n;

export class OutputStream {
  private readonly sink: ByteSink;
  private readonly ctx: HostContext;
  constructor(sink: ByteSink, ctx: HostContext) {
    this.sink = sink;
    this.ctx = ctx;
  }
  checkWrite(): bigint {
    this.ctx.checkDeadline();
    return WRITE_BUDGET;
  }
  write(contents: Uint8Array): void {
    this.ctx.checkDeadline();
    this.sink.write(contents);
  }
  blockingWriteAndFlush(contents: Uint8Array): void {
    this.write(contents);
  }
  flush(): void {}
  blockingFlush(): void {}
  subscribe(): Pollable {
    return READY;
  }
  writeZeroes(len: bigint): void {
    this.write(new Uint8Array(Number(len)));
  }
  blockingWriteZeroesAndFlush(len: bigint): void {
    this.writeZeroes(len);
  }
  splice(src: InputStream, len: bigint): bigint {
    const chunk = src.read(len);
    this.write(chunk);
    return BigInt(chunk.length);
  }
  blockingSplice(src: InputStream, len: bigint): bigint {
    return this.splice(src, len);
  }
}

/**
 * Captures stdout or stderr up to a cap. Reaching the cap stops the run with
 * an `output` limit: a tool flooding its output is broken, and what it wrote
 * so far (exactly `cap` bytes) is kept for the report.
 */
export class CaptureSink implements ByteSink {
  private readonly chunks: Uint8Array[] = [];
  private size = 0;
  private readonly cap: number;
  constructor(cap: number) {
    this.cap = cap;
  }
  write(bytes: Uint8Array): void {
    const room = this.cap - this.size;
    if (bytes.length > room) {
      if (room > 0) this.push(bytes.subarray(0, room));
      throw new LimitError('output', limitMessages.output(this.cap));
    }
    this.push(bytes);
  }
  private push(bytes: Uint8Array): void {
    // The guest reuses its buffer after the call returns: copy.
    this.chunks.push(bytes.slice());
    this.size += bytes.length;
  }
  bytes(): Uint8Array {
    return concatChunks(this.chunks, this.size);
  }
}

/** The chunks a sink collected, as one array (the only chunk itself when there is one). */
export function concatChunks(chunks: readonly Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
