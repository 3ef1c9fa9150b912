import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Files larger than this are skipped (and counted): huge files are logs or data, not code. */
export const MAX_GREP_FILE_BYTES = 20 * 1024 * 1024;

export type ReadOutcome = { kind: 'ok'; length: number } | { kind: 'too_big' } | { kind: 'unreadable' };

/**
 * Reads whole files into one reused buffer, grown on demand: a search over
 * 20,000 files allocates a handful of buffers instead of 20,000.
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
      const size = fstatSync(fd).size;
      if (size > MAX_GREP_FILE_BYTES) return { kind: 'too_big' };
      if (size > this.buffer.length) this.buffer = Buffer.allocUnsafe(Math.max(size, this.buffer.length * 2));
      let length = 0;
      // Files can grow between fstat and read; we read what fstat promised and no more.
      while (length < size) {
        const n = readSync(fd, this.buffer, length, size - length, length);
        if (n === 0) break;
        length += n;
      }
      return { kind: 'ok', length };
    } catch {
      return { kind: 'unreadable' };
    } finally {
      closeSync(fd);
    }
  }
}
