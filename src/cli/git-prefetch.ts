/**
 * git's status for `-p` and stream-json runs, started before the command
 * line is parsed. git takes about 20 ms here while start-up keeps both cores
 * busy; started where the run first knows its folder, it was the last thing
 * the first request waited for. A run whose folder turns out to be another
 * (`--cwd`) or that needs no status (`--worktree`) starts its own or none;
 * the early one then ends unread. In a folder that is not trusted git does
 * not run at all (the facts come from `.git/HEAD`); in a trusted one it runs
 * in a read-only sandbox.
 */
import { findProjectRoot, folderTrusted, moatPaths } from '../config/index.ts';
import { sandboxedGitStatus } from '../sandbox/index.ts';
import { answersAndExits, gitHead, gitInfo, type GitInfo } from '../util/index.ts';

let early: { cwd: string; info: Promise<GitInfo | undefined> } | undefined;

/** Starts git's status in the current folder when `argv` looks like a `-p` or stream-json run in it; true when it did. */
export function prefetchGitInfo(argv: readonly string[], cwd: string = process.cwd()): boolean {
  if (early !== undefined || !answersAndExits(argv) || argv.some((a) => a === '--cwd' || a.startsWith('--cwd='))) return false;
  early = { cwd, info: gitInfoIn(cwd) };
  return true;
}

/** The git facts of `cwd`: the early ones when they are of this folder (once), otherwise started now. */
export function gitInfoOf(cwd: string): Promise<GitInfo | undefined> {
  const e = early;
  early = undefined;
  return e !== undefined && e.cwd === cwd ? e.info : gitInfoIn(cwd);
}

/** The head, and the status only when the folder is trusted. */
function gitInfoIn(cwd: string): Promise<GitInfo | undefined> {
  const trusted = folderTrusted(findProjectRoot(cwd), moatPaths(process.env).configDir);
  return gitInfo(cwd, gitHead(cwd), trusted ? sandboxedGitStatus : undefined);
}
