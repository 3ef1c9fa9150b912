/** Finds the project root (the git repository) and its `.moat/config.toml`. */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * The root of the git repository containing `cwd`, else `cwd` itself.
 * `.git` may be a folder or, in worktrees and submodules, a file; both count.
 */
export function findProjectRoot(cwd: string): string {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return start;
  }
}

/** `.moat/config.toml` under the project root. */
export function projectConfigFile(projectRoot: string): string {
  return join(projectRoot, '.moat', 'config.toml');
}
