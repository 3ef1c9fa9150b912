/** Synchronous writes to stdout and stderr that survive an immediate exit, and a stdout writer that notices its reader leave. */
import { writeSync } from 'node:fs';

/**
 * Synchronous writes: the process exits right after the last line, and an
 * async stream write could still be pending then (truncated output in a pipe).
 */
export function writeFd(fd: 1 | 2, text: string): void {
  const buf = Buffer.from(text);
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off);
    } catch (e) {
      // A non-blocking pipe that is full: wait briefly and retry.
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') Bun.sleepSync(1);
      else throw e;
    }
  }
}

export const out = (s: string) => writeFd(1, s);
export const err = (s: string) => writeFd(2, s);

/** stdout for a run whose reader may go away (`moat -p … | head -1`). */
export interface RunStdout {
  write(text: string): void;
  /** Whether the reader closed the pipe: the run was told, and nothing more is written. */
  readonly closed: boolean;
}

/**
 * A closed pipe ends the run quietly, as it ends `cat` under `head`: the
 * first EPIPE calls `onClosed` (the caller interrupts the run, whose finished
 * turns are already saved) and later writes are dropped, not thrown.
 */
export function runStdout(onClosed: () => void): RunStdout {
  let closed = false;
  return {
    write: (text) => {
      if (closed) return;
      try {
        writeFd(1, text);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EPIPE') throw e;
        closed = true;
        onClosed();
      }
    },
    get closed() {
      return closed;
    },
  };
}
