/**
 * The mount points bubblewrap leaves on the host for denied paths that did
 * not exist: an empty folder it creates so that it has something to mount the
 * refusal on. They are removed when the last command that uses them
 * has finished, never earlier: unlinking a mount point on the host detaches
 * that mount in every sandbox still running, which would make the path
 * writable there again.
 */
import { lstatSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';

const users = new Map<string, number>();
let exitHook = false;

function removeIfUntouched(path: string): void {
  try {
    const st = lstatSync(path);
    // Only what bubblewrap made and nobody filled since: an empty file or an empty folder.
    if (st.isFile() && st.size === 0) unlinkSync(path);
    else if (st.isDirectory() && readdirSync(path).length === 0) rmdirSync(path);
  } catch {
    // Gone already, or not ours to remove.
  }
}

/**
 * Count one more command using each of `paths` (absent when it was planned),
 * and return the release to call once that command has exited.
 */
export function holdPlaceholders(paths: readonly string[]): () => void {
  if (paths.length === 0) return () => {};
  for (const p of paths) users.set(p, (users.get(p) ?? 0) + 1);
  if (!exitHook) {
    exitHook = true;
    // A command prepared but never finished still must not leave its mount points behind.
    process.once('exit', () => {
      for (const p of [...users.keys()].sort((a, b) => b.length - a.length)) removeIfUntouched(p);
    });
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // Deepest first: a folder placeholder empties once the files below it are gone.
    for (const p of [...paths].sort((a, b) => b.length - a.length)) {
      const n = (users.get(p) ?? 1) - 1;
      if (n > 0) {
        users.set(p, n);
        continue;
      }
      users.delete(p);
      removeIfUntouched(p);
    }
  };
}

/** Whether `path` is a placeholder some running command still uses (then it is not the user's file). */
export function isHeldPlaceholder(path: string): boolean {
  return users.has(path);
}
