import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Write `files` (relative path → content) under `root`; mtimes increase in listing order (1 s apart). */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  let t = 1_700_000_000;
  for (const [rel, content] of Object.entries(files)) {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
    utimesSync(p, t, t);
    t += 1;
  }
}
