import { runInChild } from './child-runner.ts';
import { forgetLoaded as forgetModules, preparedFor } from './load.ts';
import { runInProcess } from './run-in-process.ts';
import type { LoadedComponent, RunRequest, RunResult } from './types.ts';
import { dropSpares } from './warm.ts';

/**
 * Run one invocation of a loaded component: a fresh host and a fresh instance
 * every time, in this thread (trusted, fastest) or in a child process that is
 * SIGKILLed at the deadline (untrusted). Every way the guest can end — exit,
 * trap, fuel, memory, output, deadline — comes back as a RunResult; only a
 * broken request (a preopen that does not exist) throws a MoatError.
 */
export function runComponent(loaded: LoadedComponent, request: RunRequest): Promise<RunResult> {
  const p = preparedFor(loaded);
  return request.isolation === 'child' ? runInChild(p, request) : runInProcess(p, request);
}

/** Drop the in-memory modules and the warm spares (tests; a hot-reload that deletes a tool). */
export function forgetLoaded(): void {
  forgetModules();
  dropSpares();
}
