/** A folder's files as a comparable value: each path with its kind, permission bits and content hash (for tests that compare trees). */
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/** path → `file 0644 <sha256>` | `link -> target`; folders named in `skip` (at any depth) are not read. */
export function treeState(root: string, skip: readonly string[] = ['.git']): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (skip.includes(e.name)) continue;
      const p = join(dir, e.name);
      const r = rel === '' ? e.name : `${rel}/${e.name}`;
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[r] = `link -> ${readlinkSync(p)}`;
      else if (st.isDirectory()) walk(p, r);
      else out[r] = `file ${(st.mode & 0o7777).toString(8).padStart(4, '0')} ${createHash('sha256').update(readFileSync(p)).digest('hex')}`;
    }
  };
  walk(root, '');
  return out;
}
