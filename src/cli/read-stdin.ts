/** Reads piped stdin for `moat -p`. */
import { fstatSync } from 'node:fs';

/**
 * Reads piped stdin (`echo task | moat -p`, `moat -p task < file`). Only a
 * pipe or a regular file is read: a terminal is interactive input, and an
 * inherited socket or /dev/null has nothing for us and must not block.
 */
export async function readPipedStdin(): Promise<string> {
  let stat;
  try {
    stat = fstatSync(0);
  } catch {
    return '';
  }
  if (!stat.isFIFO() && !stat.isFile()) return '';
  return await Bun.stdin.text();
}
