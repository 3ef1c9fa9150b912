/**
 * Git facts for the system prompt, the session row and the TUI's status line:
 * the one place moat reads which repository and branch a folder is in. The
 * root and the branch come from the files under `.git`, without running git
 * (well under a millisecond); the short status needs git itself and runs in
 * the background, so start-up does other work while it runs. A folder outside
 * a repository yields `undefined`.
 *
 * git runs what a repository's configuration names (`core.fsmonitor`, hooks,
 * filters), so the status is read only through a reader the caller hands in:
 * none before the folder is trusted (the facts then come from `.git/HEAD`
 * alone), the OS sandbox's once it is.
 */
import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { realPathOrSelf } from './text-and-paths.ts';

export interface GitHead {
  /** The working tree's top folder (a linked worktree's own folder), as `git rev-parse --show-toplevel` prints it. */
  root: string;
  /** The checked-out branch, or the short commit when HEAD is detached. */
  branch: string;
}

export interface GitInfo extends GitHead {
  /** `git status --short`, capped; undefined when it was not read (the folder is not trusted). */
  status: string | undefined;
}

/**
 * Given to every git moat runs: the repository's fsmonitor and hooks never
 * run, whatever its configuration (or a `commondir` or `include` it points
 * to) says. Command-line settings win over every configuration file.
 */
export const SAFE_GIT_FLAGS: readonly string[] = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null'];

/**
 * `git status --short` as moat runs it: no optional locks (the user's own git
 * commands must not find the index locked), and submodules ignored (a
 * nested repository's configuration is not read at all).
 */
export const GIT_STATUS_ARGV: readonly string[] = ['git', '--no-optional-locks', ...SAFE_GIT_FLAGS, 'status', '--short', '--ignore-submodules=all'];

/** Reads `git status --short` in a folder: empty when git cannot say. */
export type GitStatusReader = (cwd: string) => Promise<string>;

const STATUS_CAP = 2000;

/** The git folder a `.git` entry stands for: the folder itself, or where a worktree's or submodule's `.git` file points. */
function gitDirOf(top: string, dotGit: string): string | undefined {
  try {
    if (statSync(dotGit).isDirectory()) return dotGit;
    const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, 'utf8'));
    return m?.[1] === undefined ? undefined : resolve(top, m[1].trim());
  } catch {
    return undefined;
  }
}

/** The branch HEAD names (`ref: refs/heads/x`), or the first seven hex digits of a detached HEAD's commit. */
function branchOf(head: string): string {
  const ref = /^ref:\s*(\S+)/.exec(head)?.[1];
  if (ref === undefined) return head.slice(0, 7);
  return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref;
}

/**
 * The repository `cwd` is in, read from `.git/HEAD` the way git finds it:
 * the nearest folder upwards with a `.git` whose HEAD can be read.
 */
export function gitHead(cwd: string): GitHead | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const gitDir = gitDirOf(dir, join(dir, '.git'));
    if (gitDir !== undefined) {
      try {
        return { root: realPathOrSelf(dir), branch: branchOf(readFileSync(join(gitDir, 'HEAD'), 'utf8').trim()) };
      } catch {
        // Not a repository after all (no HEAD): git goes on looking upwards, and so do we.
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** git's status output, capped: what goes into the system prompt. */
export function capStatus(text: string): string {
  const status = text.trimEnd();
  return status.length > STATUS_CAP ? `${status.slice(0, STATUS_CAP)}\n… (truncated)` : status;
}

/**
 * The head and, when a reader is given, the short status. Start it early and
 * await it late: git runs while the caller does other work. Never rejects.
 */
export async function gitInfo(cwd: string, head: GitHead | undefined = gitHead(cwd), readStatus?: GitStatusReader): Promise<GitInfo | undefined> {
  if (head === undefined) return undefined;
  if (readStatus === undefined) return { ...head, status: undefined };
  try {
    return { ...head, status: await readStatus(cwd) };
  } catch {
    return { ...head, status: '' };
  }
}
