/**
 * What `git add` and `git commit` need outside a linked worktree (a
 * sub-agent's, under `.moat/worktrees/<id>`): its own metadata folder
 * `<repo>/.git/worktrees/<id>`, the shared object store, and — when it is on
 * one of moat's branches — the folder of moat's branch refs. Not the whole
 * `<repo>/.git`: that would let a sandboxed command move the user's branches,
 * rewrite the main checkout's index, or edit the repository's config and
 * hooks. The files that tell git where the repository is, or that it reads as
 * configuration, stay read-only, so the next command (and moat's own git on
 * the host) cannot be pointed somewhere else.
 */
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

export interface WorktreeGrants {
  write: string[];
  deny: string[];
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Undefined unless `root` is the top of a linked worktree whose metadata points back at it, as git itself checks. */
export function linkedWorktreeGrants(root: string): WorktreeGrants | undefined {
  const dotGit = join(root, '.git');
  try {
    if (!lstatSync(dotGit).isFile()) return undefined;
  } catch {
    return undefined;
  }
  const pointer = /^gitdir: (.+)$/m.exec(read(dotGit) ?? '')?.[1];
  const gitDir = pointer === undefined ? undefined : real(resolve(root, pointer.trim()));
  if (gitDir === undefined) return undefined;
  const back = read(join(gitDir, 'gitdir'));
  if (back === undefined || real(resolve(gitDir, back)) !== real(dotGit)) return undefined;
  const common = real(resolve(gitDir, read(join(gitDir, 'commondir')) ?? '../..'));
  if (common === undefined || dirname(gitDir) !== join(common, 'worktrees')) return undefined;

  const write = [gitDir, join(common, 'objects')];
  // moat's own branches only (moat/<id>-<slug>): never the user's.
  const ref = /^ref: (refs\/heads\/moat\/[^/]+)$/.exec(read(join(gitDir, 'HEAD')) ?? '')?.[1];
  if (ref !== undefined) write.push(join(common, 'refs/heads/moat'), join(common, 'logs/refs/heads/moat'));
  return {
    write: write.filter(isDir),
    deny: [
      ...['HEAD', 'commondir', 'gitdir', 'config.worktree', 'modules'].map((f) => join(gitDir, f)),
      // New loose objects only: packs and alternates are the repository's history.
      join(common, 'objects', 'pack'),
      join(common, 'objects', 'info'),
    ],
  };
}

