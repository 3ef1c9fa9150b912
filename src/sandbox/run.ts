/** Runs one invocation of a loaded component, in process or in the child. */
import { runInChild } from './child-runner.ts';
import { forgetLoaded as forgetModules, preparedFor } from './load.ts';
import { runInProcess } from './run-in-process.ts';
import { interfaceName } from './import-policy.ts';
import type { LoadedComponent, NetworkGrant, RunRequest, RunResult } from './types.ts';
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
  const req = request.network === undefined && importsHttp(loaded) ? { ...request, network: NO_NETWORK } : request;
  return req.isolation === 'child' ? runInChild(p, req) : runInProcess(p, req);
}

/**
 * The grant of a wasi:http importer run without one (its help run at
 * registration, a manifest without [network]): wasi:http is provided with an
 * empty allowlist, so every request is refused by the policy, with its reason.
 * Leaving the interfaces out instead would fail instantiation, and such a
 * component could not even be asked for its --help.
 */
const NO_NETWORK: NetworkGrant = Object.freeze({ allowHosts: [] }) as NetworkGrant;

function importsHttp(loaded: LoadedComponent): boolean {
  return loaded.imports.some((spec) => interfaceName(spec).startsWith('wasi:http/'));
}

/** Drop the in-memory modules and the warm spares (tests; a hot-reload that deletes a tool). */
export function forgetLoaded(): void {
  forgetModules();
  dropSpares();
}
