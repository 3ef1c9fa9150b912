/** Synchronous writes to stdout and stderr that survive an immediate exit. */
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
