/**
 * Git facts for the system prompt, the session row and the TUI's status line:
 * the one place moat reads which repository and branch a folder is in. The
 * root and the branch come from the files under `.git`, without running git
 * (well under a millisecond); the short status needs git itself and runs in
 * the background, so start-up does other work while it runs. A folder outside
 * a repository yields `undefined`.
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
  /** `git status --short`, capped. */
  status: string;
}

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

/** `git status --short` in `cwd` (paths relative to it), capped; empty when git cannot say. */
async function shortStatus(cwd: string): Promise<string> {
  try {
    // No optional locks: reading the status must not take the index lock from the user's own git commands.
    const proc = Bun.spawn(['git', '--no-optional-locks', 'status', '--short'], { cwd, stdout: 'pipe', stderr: 'ignore', stdin: 'ignore' });
    const [text, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    if (code !== 0) return '';
    const status = text.trimEnd();
    return status.length > STATUS_CAP ? `${status.slice(0, STATUS_CAP)}\n… (truncated)` : status;
  } catch {
    return ''; // git not installed
  }
}

/**
 * The head and the short status. Start it early and await it late: git runs
 * while the caller does other work. Never rejects.
 */
export async function gitInfo(cwd: string, head: GitHead | undefined = gitHead(cwd)): Promise<GitInfo | undefined> {
  if (head === undefined) return undefined;
  return { ...head, status: await shortStatus(cwd) };
}
