/** Reads files for Grep: size limits and binary detection. */
import { closeSync, openSync, readSync } from 'node:fs';

/** Files larger than this are skipped (and counted): huge files are logs or data, not code. */
export const MAX_GREP_FILE_BYTES = 20 * 1024 * 1024;

export type ReadOutcome = { kind: 'ok'; length: number } | { kind: 'too_big' } | { kind: 'unreadable' };

/**
 * Reads whole files into one reused buffer, grown on demand: a search over
 * 20,000 files allocates a handful of buffers instead of 20,000. Syscalls are
 * the cost that matters here, so a file is open + read + close: no fstat, and
 * a short read is taken as the end of a regular file instead of reading again
 * to see 0.
 */
export class FileReader {
  buffer: Buffer = Buffer.allocUnsafe(256 * 1024);

  read(path: string): ReadOutcome {
    let fd: number;
    try {
      fd = openSync(path, 'r');
    } catch {
      return { kind: 'unreadable' };
    }
    try {
      let length = 0;
      for (;;) {
        const want = this.buffer.length - length;
        const n = readSync(fd, this.buffer, length, want, null);
        length += n;
        if (n < want) return { kind: 'ok', length };
        if (length > MAX_GREP_FILE_BYTES) return { kind: 'too_big' };
        // Full buffer: the file may go on. Grow (keeping what we have) and read more.
        const bigger = Buffer.allocUnsafe(Math.min(this.buffer.length * 2, MAX_GREP_FILE_BYTES + 1));
        this.buffer.copy(bigger, 0, 0, length);
        this.buffer = bigger;
      }
    } catch {
      return { kind: 'unreadable' };
    } finally {
      closeSync(fd);
    }
  }
}
