/**
 * A binary to measure, copied into `dir` now, as the floor it is compared with
 * is built now: the page cache maps a file written long ago in other pieces
 * than one written moments ago, and the same bytes then cost ~5 MB more or
 * less peak RSS and several ms of start-up (45.0 vs 49.9 MB for one binary
 * and its fresh copy here; equal once the caches are dropped).
 */
import { chmodSync, copyFileSync } from 'node:fs';
import { join } from 'node:path';

export function freshCopy(bin: string, dir: string, name: string): string {
  const copy = join(dir, `${name}.bin`);
  copyFileSync(bin, copy);
  chmodSync(copy, 0o755);
  return copy;
}
