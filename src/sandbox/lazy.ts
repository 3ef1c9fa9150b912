/**
 * The sandbox's heavy entry points (loading and running components, the child
 * that runs one, preparing an OS-sandboxed command), each importing its module
 * on the first call: a session that runs no tool evaluates none of them, and
 * `moat -p` sends its first request without the WASI host, the transpile
 * cache, bubblewrap's argv builder or the seccomp helper (moat's own `git
 * status` loads the last two while the request is being built; loaded eagerly they
 * add ~1.3 MB to the peak RSS of `-p` read-then-answer, against a 55 MB budget).
 * Imported statically, -p's first byte came 12.1 ms later either way: the
 * WebAssembly half (load, run, child-main) +7.2 ms CPU, +2.1 MB; the OS half
 * +5.4 ms CPU, +1.5 MB (scripts/bench/startup.ts, 20 interleaved runs, load 2.4-3.3).
 */
import type * as Load from './load.ts';
import type * as OsGit from './os/own-git.ts';
import type * as OsPrepare from './os/prepare-command.ts';
import type * as OsRun from './os/run-sandboxed.ts';
import type * as Run from './run.ts';

let load: typeof Load | undefined;
let run: typeof Run | undefined;

export async function loadComponent(...args: Parameters<typeof Load.loadComponent>): ReturnType<typeof Load.loadComponent> {
  load ??= await import('./load.ts');
  return load.loadComponent(...args);
}

export async function loadCached(...args: Parameters<typeof Load.loadCached>): ReturnType<typeof Load.loadCached> {
  load ??= await import('./load.ts');
  return load.loadCached(...args);
}

export async function runComponent(...args: Parameters<typeof Run.runComponent>): ReturnType<typeof Run.runComponent> {
  run ??= await import('./run.ts');
  return run.runComponent(...args);
}

/** Drops the in-memory modules and the warm spares; nothing to drop from a module never loaded. */
export function forgetLoaded(): void {
  if (run !== undefined) run.forgetLoaded();
  else load?.forgetLoaded();
}

export async function runChildMain(argv: readonly string[]): Promise<number> {
  return (await import('./child-main.ts')).runChildMain(argv);
}

export async function prepareCommand(...args: Parameters<typeof OsPrepare.prepareCommand>): ReturnType<typeof OsPrepare.prepareCommand> {
  return (await import('./os/prepare-command.ts')).prepareCommand(...args);
}

export async function sandboxedGitStatus(...args: Parameters<typeof OsGit.sandboxedGitStatus>): ReturnType<typeof OsGit.sandboxedGitStatus> {
  return (await import('./os/own-git.ts')).sandboxedGitStatus(...args);
}

export async function runSandboxed(...args: Parameters<typeof OsRun.runSandboxed>): ReturnType<typeof OsRun.runSandboxed> {
  return (await import('./os/run-sandboxed.ts')).runSandboxed(...args);
}

export async function prepareSandboxed(...args: Parameters<typeof OsRun.prepareSandboxed>): ReturnType<typeof OsRun.prepareSandboxed> {
  return (await import('./os/run-sandboxed.ts')).prepareSandboxed(...args);
}

export async function runOwnProcess(...args: Parameters<typeof OsRun.runOwnProcess>): ReturnType<typeof OsRun.runOwnProcess> {
  return (await import('./os/run-sandboxed.ts')).runOwnProcess(...args);
}
