/** Lists a folder's entries for the loaders. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Entries of `dir` sorted by name, dot-entries left out; a missing folder is simply empty. */
export function entriesOf(dir: string): { name: string; path: string; isDir: boolean; isFile: boolean }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => !n.startsWith('.'))
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      try {
        // stat, not lstat: a symlinked skill folder is a common way to share one.
        const st = statSync(path);
        return [{ name, path, isDir: st.isDirectory(), isFile: st.isFile() }];
      } catch {
        return [];
      }
    });
}
