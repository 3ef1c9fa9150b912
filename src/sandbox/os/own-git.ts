/**
 * moat's own `git status` (for the system prompt) inside a lean read-only
 * sandbox: whatever a repository's configuration makes git run (a filter, a
 * program named where moat's flags do not reach) can read what any sandboxed
 * command may read, write nothing, reach no network and no other process.
 *
 * Lean because it runs at every start of a trusted folder, in parallel with
 * the first request: bubblewrap alone (about 12 ms more than git by itself on
 * the reference machine), without the seccomp loader, the write monitor and
 * the network bridge of prepareCommand (about 80 ms together). With no
 * network namespace to reach and no folder to write, those add little here;
 * what the seccomp loader would add (no Unix sockets) is the one thing left
 * out, and the README says so.
 */
import { bwrapArgv } from './bwrap-argv.ts';
import { builtinDenyRead } from './deny-list.ts';
import { DEFAULT_SCRUB_ENV, scrubEnv } from './env-scrub.ts';
import { planMounts } from './mount-plan.ts';
import { deniedFilePath } from './seccomp-helper.ts';
import { sandboxInstalled } from './support.ts';
import { capStatus, GIT_STATUS_ARGV } from '../../util/index.ts';

type Env = Readonly<Record<string, string | undefined>>;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(argv: readonly string[], cwd: string, env: Record<string, string>): Promise<Ran> {
  const proc = Bun.spawn([...argv], { cwd, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** `command` under bubblewrap: everything read-only, the deny-read list masked, no network, no capabilities. Undefined without bubblewrap. */
export function readOnlyArgv(command: readonly string[], cwd: string, env: Env): string[] | undefined {
  const support = sandboxInstalled(env);
  if (!support.available || support.bwrap === undefined) return undefined;
  const mounts = planMounts([], [], builtinDenyRead(env));
  return bwrapArgv({ bwrap: support.bwrap, cwd, writeRoots: [], mounts, deniedFile: deniedFilePath(env), setEnv: {}, bindSockets: [], capabilities: ['--cap-drop', 'ALL'] }, command);
}

/**
 * `git status --short` in `cwd`, capped; empty when git cannot say. Where
 * bubblewrap is missing or cannot create its namespaces, git runs as the
 * `auto` sandbox mode runs commands: outside, with moat's git flags only.
 */
export async function sandboxedGitStatus(cwd: string, env: Env = process.env): Promise<string> {
  const clean = scrubEnv(env, DEFAULT_SCRUB_ENV);
  try {
    const wrapped = readOnlyArgv(GIT_STATUS_ARGV, cwd, env);
    if (wrapped !== undefined) {
      const r = await run(wrapped, cwd, clean);
      if (r.code === 0) return capStatus(r.stdout);
      // git's own failure (not a repository after all): nothing to say. bubblewrap's: run it as auto mode would.
      if (!r.stderr.startsWith('bwrap:')) return '';
    }
    const r = await run(GIT_STATUS_ARGV, cwd, clean);
    return r.code === 0 ? capStatus(r.stdout) : '';
  } catch {
    return ''; // git not installed
  }
}
