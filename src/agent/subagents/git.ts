/** `git` as a child process with an argument array, never a shell string. */
import { MoatError } from '../../util/index.ts';

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

export async function git(cwd: string, args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}): Promise<GitResult> {
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
