/** Reads a window of lines without loading the whole file. */
import { readSync } from 'node:fs';

/**
 * Reads a window of lines from an open file without loading the whole file:
 * the read tool uses it so `offset`/`limit` on a 500 MB log costs one pass of
 * 64 KB chunks and memory for the requested lines only.
 */
export interface LineWindow {
  /** The lines in the window, without their line endings (a trailing CR is dropped too). */
  lines: string[];
  /** Lines in the whole file (a final line without a newline counts). */
  totalLines: number;
  /** How many of `lines` were cut at `maxLineChars`. */
  cutLines: number;
}

export const LINE_CUT_MARKER = '… [line truncated]';

const CHUNK = 64 * 1024;

export function readLineWindow(fd: number, start: number, limit: number, maxLineChars: number): LineWindow {
  const end = start + limit; // exclusive
  // A UTF-8 character is at most 4 bytes: collecting this much always yields enough characters.
  const maxLineBytes = maxLineChars * 4 + 4;
  const chunk = Buffer.allocUnsafe(CHUNK);
  const lines: string[] = [];
  let cutLines = 0;
  let lineNo = 1;
  let pieces: Buffer[] = [];
  let collected = 0;
  let overflow = false;
  let pending = 0; // bytes of the current line seen so far (to know if a last line exists)

  const take = (from: number, to: number): void => {
    pending += to - from;
    if (lineNo < start || lineNo >= end || to <= from) return;
    const room = maxLineBytes - collected;
    if (room <= 0) {
      overflow = true;
      return;
    }
    const n = Math.min(room, to - from);
    if (n < to - from) overflow = true;
    // Copy: the chunk buffer is reused for the next read.
    pieces.push(Buffer.from(chunk.subarray(from, from + n)));
    collected += n;
  };
  const finish = (): void => {
    if (lineNo >= start && lineNo < end) {
      let text = (pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces)).toString('utf8');
      if (text.endsWith('\r')) text = text.slice(0, -1);
      if (overflow || text.length > maxLineChars) {
        text = text.slice(0, maxLineChars) + LINE_CUT_MARKER;
        cutLines++;
      }
      lines.push(text);
    }
    pieces = [];
    collected = 0;
    overflow = false;
    pending = 0;
    lineNo++;
  };

  for (;;) {
    const n = readSync(fd, chunk, 0, CHUNK, null);
    if (n === 0) break;
    let pos = 0;
    while (pos < n) {
      const nl = chunk.indexOf(10, pos);
      if (nl === -1 || nl >= n) {
        take(pos, n);
        break;
      }
      take(pos, nl);
      finish();
      pos = nl + 1;
    }
  }
  if (pending > 0) finish();
  return { lines, totalLines: lineNo - 1, cutLines };
}
