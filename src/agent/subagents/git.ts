/** `git` as a child process with an argument array, never a shell string. */
import { MoatError, SAFE_GIT_FLAGS } from '../../util/index.ts';

/**
 * `git` as a child process with an argument array — never a shell string, so
 * branch names, descriptions and paths can hold any character. Async, so a
 * slow `git add -A` in a big repository never blocks the event loop the
 * other agents run on.
 */
export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Commits moat makes for the user (sub-agent work, merges) when git knows no identity. */
const FALLBACK_IDENTITY = ['-c', 'user.name=moat', '-c', 'user.email=moat@localhost'];

/**
 * `-c` settings that switch off every program the repository's configuration
 * names for a driver: a checkout (`git worktree add`), an add, a diff or a
 * merge would otherwise run it, outside the sandbox. moat's flags switch off
 * fsmonitor and hooks; drivers have names of the configuration's choosing, so
 * they are read first (`git config` runs nothing). An empty filter is git's
 * "no filter"; a diff driver's programs become `cat`; a merge driver becomes
 * `false`, which leaves the file conflicted for the user.
 */
async function driverOverrides(cwd: string): Promise<string[]> {
  const r = await spawnGit(cwd, [...SAFE_GIT_FLAGS, 'config', '-z', '--name-only', '--get-regexp', '^(filter|merge|diff)\\.'], {});
  const names = { filter: new Set<string>(), merge: new Set<string>(), diff: new Set<string>() };
  for (const key of r.stdout.split('\0')) {
    const m = /^(filter|merge|diff)\.(.+)\.[a-z]+$/i.exec(key);
    const kind = m?.[1]?.toLowerCase();
    if (m?.[2] !== undefined && (kind === 'filter' || kind === 'merge' || kind === 'diff')) names[kind].add(m[2]);
  }
  return [
    ...[...names.filter].flatMap((n) => ['-c', `filter.${n}.clean=`, '-c', `filter.${n}.smudge=`, '-c', `filter.${n}.process=`, '-c', `filter.${n}.required=false`]),
    ...[...names.merge].flatMap((n) => ['-c', `merge.${n}.driver=false`]),
    ...[...names.diff].flatMap((n) => ['-c', `diff.${n}.textconv=cat`, '-c', `diff.${n}.command=cat`]),
  ];
}

/** moat's commits are not signed: `gpg.program` is one more program the repository's configuration could name. */
const NO_SIGNING = ['-c', 'commit.gpgSign=false', '-c', 'tag.gpgSign=false'];

/** Every git moat runs for its sub-agents: the repository's fsmonitor, hooks, drivers and signing program switched off. */
export async function git(cwd: string, args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}): Promise<GitResult> {
  return spawnGit(cwd, [...SAFE_GIT_FLAGS, ...NO_SIGNING, ...(await driverOverrides(cwd)), ...args], opts);
}

async function spawnGit(cwd: string, args: string[], opts: { stdin?: string; env?: Record<string, string> }): Promise<GitResult> {
  let proc;
  try {
    proc = Bun.spawn(['git', ...args], {
      cwd,
      stdin: opts.stdin === undefined ? 'ignore' : new TextEncoder().encode(opts.stdin),
      stdout: 'pipe',
      stderr: 'pipe',
      // No pager, no editor, no credential prompt: nobody is there to answer.
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true', GIT_PAGER: 'cat', LC_ALL: 'C', ...opts.env },
    });
  } catch (e) {
    throw new MoatError('internal', `cannot run git: ${e instanceof Error ? e.message : String(e)}`);
  }
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** Like `git`, but a non-zero exit is an error naming the command and git's own words. */
export async function gitOk(cwd: string, args: string[], opts: { stdin?: string } = {}): Promise<string> {
  const r = await git(cwd, args, opts);
  if (r.code !== 0) {
    const why = (r.stderr.trim() || r.stdout.trim()).split('\n').slice(-3).join(' ');
    throw new MoatError('internal', `git ${args[0] ?? ''} failed: ${why}`);
  }
  return r.stdout;
}

/** Identity flags for a commit: the user's own when configured, else moat's fallback. */
export async function identityArgs(cwd: string): Promise<string[]> {
  const name = await git(cwd, ['config', 'user.name']);
  const email = await git(cwd, ['config', 'user.email']);
  return name.code === 0 && email.code === 0 ? [] : FALLBACK_IDENTITY;
}
