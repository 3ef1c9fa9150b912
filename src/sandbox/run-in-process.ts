import { createHost, HostContext, LimitError, limitMessages, WasiExit } from './host/index.ts';
import { mainModuleFor, type Prepared } from './load.ts';
import type { LimitHit, RunRequest, RunResult } from './types.ts';
import { PAGE } from './wasm/memory-cap.ts';
import { FUEL_EXPORT, MEMORY_DENIED_EXPORT } from './wasm/meter.ts';
import { errorMessage, MoatError } from '../util/index.ts';

/**
 * One invocation in this thread: a fresh host, a fresh instance, the budget
 * set on the metered main module, and every way a run can end turned into a
 * RunResult. Nothing thrown by the guest or the host escapes.
 */

/** Exit code reported when the run did not exit by itself (trap or limit). */
export const TRAP_EXIT_CODE = 128;

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

export async function runInProcess(p: Prepared, req: RunRequest): Promise<RunResult> {
  const started = performance.now();
  const { limits } = req;
  const base = { stdout: new Uint8Array(0), stderr: new Uint8Array(0), fuelUsed: 0 };
  if (p.meta.initialPages * PAGE > limits.memoryBytes) {
    return { ...base, exitCode: TRAP_EXIT_CODE, limitHit: 'memory', message: limitMessages.memory(limits.memoryBytes), peakMemoryBytes: p.meta.initialPages * PAGE, durationMs: performance.now() - started };
  }
  const ctx = new HostContext(limits, req.signal);
  let host: ReturnType<typeof createHost>;
  try {
    host = createHost({ args: req.args, env: req.env, stdin: req.stdin, preopens: req.preopens, network: req.network, ctx });
  } catch (e) {
    throw new MoatError('tool', `cannot set up the sandbox: ${errorMessage(e)}`, { cause: e });
  }
  const main = mainModuleFor(p, limits.memoryBytes);
  const budget = BigInt(Math.min(Math.floor(limits.fuel), Number.MAX_SAFE_INTEGER));
  let mainInstance: WebAssembly.Instance | undefined;
  const instantiateCore = (module: WebAssembly.Module, imports?: WebAssembly.Imports): WebAssembly.Instance => {
    // Synchronous instantiation: the generated code then runs to completion without awaiting.
    const instance = new WebAssembly.Instance(module, imports);
    if (module === main) {
      mainInstance = instance;
      const fuel = instance.exports[FUEL_EXPORT];
      if (fuel instanceof WebAssembly.Global) fuel.value = budget;
    }
    return instance;
  };
  const getCoreModule = (name: string): WebAssembly.Module => {
    if (name === p.meta.mainModule) return main;
    const m = p.modules.get(name);
    if (m === undefined) throw new Error(`component asks for unknown core module ${name}`);
    return m;
  };

  let exitCode = 0;
  let thrown: unknown;
  let exited = false;
  try {
    const exports: unknown = await p.instantiate(getCoreModule, host.imports, instantiateCore);
    if (!isRunExports(exports)) throw new Error('component does not export wasi:cli/run');
    exports.run.run();
    exited = true;
  } catch (e) {
    thrown = e;
  } finally {
    host.close();
  }

  const fuelLeft = globalValue(mainInstance, FUEL_EXPORT);
  const fuelUsed = typeof fuelLeft === 'bigint' ? Number(budget - fuelLeft) : 0;
  const memoryDenied = globalValue(mainInstance, MEMORY_DENIED_EXPORT) === 1;
  const memory = mainInstance?.exports.memory;
  const peakMemoryBytes = memory instanceof WebAssembly.Memory ? memory.buffer.byteLength : 0;

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
  return result;
}
