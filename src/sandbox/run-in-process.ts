/** Runs one WebAssembly call in this thread with a fresh host and instance. */
import { createHost, HostContext, LimitError, limitMessages, WasiExit, type Host } from './host/index.ts';
import type { Prepared } from './load.ts';
import { afterRun, capPages, instantiate, runLimitPages, takeSpare, type RunInstance } from './warm.ts';
import type { LimitHit, RunRequest, RunResult } from './types.ts';
import { PAGE } from './wasm/memory-cap.ts';
import { FUEL_EXPORT, MEMORY_DENIED_EXPORT, MEMORY_LIMIT_EXPORT } from './wasm/meter.ts';
import { errorMessage, MoatError } from '../util/index.ts';
import { TRAP_EXIT_CODE } from './exit-codes.ts';

/**
 * One invocation in this thread: a fresh host, a fresh instance, the budget
 * set on the metered main module, and every way a run can end turned into a
 * RunResult. Nothing thrown by the guest or the host escapes.
 */

interface RunExports {
  run: { run(): void };
}

function isRunExports(v: unknown): v is RunExports {
  if (typeof v !== 'object' || v === null || !('run' in v)) return false;
  const run = v.run;
  return typeof run === 'object' && run !== null && 'run' in run && typeof run.run === 'function';
}

function globalValue(instance: WebAssembly.Instance | undefined, name: string): bigint | number | undefined {
  const g = instance?.exports[name];
  if (!(g instanceof WebAssembly.Global)) return undefined;
  const v: unknown = g.value;
  return typeof v === 'bigint' || typeof v === 'number' ? v : undefined;
}

export interface InProcessOptions {
  /** Build a warm spare after the run (not in the one-shot child process). Default true. */
  spare?: boolean;
}

export async function runInProcess(p: Prepared, req: RunRequest, opts: InProcessOptions = {}): Promise<RunResult> {
  const started = performance.now();
  const { limits } = req;
  const base = { stdout: new Uint8Array(0), stderr: new Uint8Array(0), fuelUsed: 0 };
  if (p.meta.initialPages * PAGE > limits.memoryBytes) {
    return { ...base, exitCode: TRAP_EXIT_CODE, limitHit: 'memory', message: limitMessages.memory(limits.memoryBytes), peakMemoryBytes: p.meta.initialPages * PAGE, durationMs: performance.now() - started };
  }
  const pages = capPages(limits.memoryBytes);
  const ctx = new HostContext(limits, req.signal);
  const hostOptions = { args: req.args, env: req.env, stdin: req.stdin, preopens: req.preopens, ctx };
  // A spare was instantiated while idle; its host gets this run's state now. Never with a network grant.
  const spare = req.network === undefined ? takeSpare(p, pages) : undefined;
  let host: Host;
  try {
    host = spare !== undefined ? spare.host.bind(hostOptions) : createHost(req.network === undefined ? hostOptions : { ...hostOptions, network: req.network });
  } catch (e) {
    throw new MoatError('tool', `cannot set up the sandbox: ${errorMessage(e)}`, { cause: e });
  }
  const budget = BigInt(Math.min(Math.floor(limits.fuel), Number.MAX_SAFE_INTEGER));

  let exitCode = 0;
  let thrown: unknown;
  let exited = false;
  let instance: RunInstance | undefined = spare?.instance;
  /** Pages a recycled memory had beyond the module's initial size: not the run's, not reported as its peak. */
  let startPages = 0;
  try {
    instance ??= await instantiate(p, pages, host.imports);
    // Set after instantiation, as before: a core start function runs inside `new Instance`.
    const fuel = instance.main?.exports[FUEL_EXPORT];
    if (fuel instanceof WebAssembly.Global) fuel.value = budget;
    const limitPages = runLimitPages(p, instance);
    const limitGlobal = instance.main?.exports[MEMORY_LIMIT_EXPORT];
    if (limitPages !== undefined) {
      // Without the global the memory's own maximum (cap + slack) would be the only cap: refuse to run.
      if (!(limitGlobal instanceof WebAssembly.Global)) throw new Error('metered module lacks its memory limit');
      limitGlobal.value = limitPages;
      startPages = Math.max(0, (instance.memory?.buffer.byteLength ?? 0) / PAGE - p.meta.initialPages);
    }
    const { exports } = instance;
    if (!isRunExports(exports)) throw new Error('component does not export wasi:cli/run');
    exports.run.run();
    exited = true;
  } catch (e) {
    thrown = e;
  } finally {
    host.close();
  }
  const mainInstance = instance?.main;

  const fuelLeft = globalValue(mainInstance, FUEL_EXPORT);
  const fuelUsed = typeof fuelLeft === 'bigint' ? Number(budget - fuelLeft) : 0;
  const memoryDenied = globalValue(mainInstance, MEMORY_DENIED_EXPORT) === 1;
  const memory = mainInstance?.exports.memory;
  const peakMemoryBytes = memory instanceof WebAssembly.Memory ? memory.buffer.byteLength - startPages * PAGE : 0;

  let limitHit: LimitHit | undefined;
  let message: string | undefined;
  let trap: string | undefined;
  if (!exited) {
    if (thrown instanceof WasiExit) {
      exitCode = thrown.code;
    } else if (thrown === undefined) {
      // run() returned `err` without calling exit: a failed command.
      exitCode = 1;
    } else if (thrown instanceof LimitError) {
      exitCode = TRAP_EXIT_CODE;
      limitHit = thrown.kind;
      message = thrown.message;
    } else if (typeof fuelLeft === 'bigint' && fuelLeft < 0n) {
      exitCode = TRAP_EXIT_CODE;
      limitHit = 'fuel';
      message = limitMessages.fuel(limits.fuel);
    } else {
      exitCode = TRAP_EXIT_CODE;
      trap = errorMessage(thrown);
    }
  }
  // A grow refused by the cap that the tool did not survive is the memory limit, whatever the tool did next.
  if (limitHit === undefined && memoryDenied && exitCode !== 0) {
    limitHit = 'memory';
    message = limitMessages.memory(limits.memoryBytes);
    trap = undefined;
  }
  const result: RunResult = {
    exitCode,
    stdout: host.stdout.bytes(),
    stderr: host.stderr.bytes(),
    fuelUsed,
    peakMemoryBytes,
    durationMs: performance.now() - started,
  };
  if (limitHit !== undefined) result.limitHit = limitHit;
  if (message !== undefined) result.message = message;
  if (trap !== undefined) {
    result.trap = trap;
    result.message = `trap: ${trap}`;
  }
  if (instance !== undefined) afterRun(p, instance, opts.spare !== false && req.network === undefined);
  return result;
}
