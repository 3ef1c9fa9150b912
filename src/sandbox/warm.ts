/** Warm instances for in-process runs, recycled between calls. */
import { createLateHost, type LateHost } from './host/index.ts';
import { JS_FILE, entryDir } from './component-cache.ts';
import { mainModuleFor, memoryModuleFor, type Prepared } from './load.ts';
import { PAGE } from './wasm/memory-cap.ts';
import { MEMORY_IMPORT_MODULE, MEMORY_IMPORT_NAME } from './wasm/import-memory.ts';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';

/**
 * Instances for in-process runs, and the two things that keep a warm call
 * cheap without ever reusing an instance:
 *
 *  - a warm spare: right after a call, while moat is idle, the next instance
 *    of the same component is created with a fresh late-bound host (see
 *    LateHost). The next call binds its own args, env, preopens and deadline
 *    to that host and runs; the spare is then gone. Instantiation (jco's
 *    glue plus the core instances: about 1–1.5 ms) is off the call's path.
 *  - memory recycling: a finished call's linear memory, if it grew by at
 *    most RECYCLE_SLACK_PAGES, is zero-filled and given to the next
 *    instance, whose data segments are then written into it as into a new
 *    memory. This avoids JavaScriptCore's full GC on every new wasm memory
 *    (see wasm/import-memory.ts). A recycled memory may start a few pages
 *    larger than the module asks; the metered `__memory_limit` then gives
 *    the run exactly the headroom a fresh memory would have (runLimitPages).
 *
 * Both only for components whose glue never defers work (no component-model
 * async: nothing of a finished instance can run later and touch a recycled
 * memory), and neither for runs with a network grant (wasi:http's classes
 * are made per run, so their host cannot be bound late).
 */

export interface RunInstance {
  exports: unknown;
  main: WebAssembly.Instance | undefined;
  /** The memory the host made for the main module (undefined when the module defines its own). */
  memory: WebAssembly.Memory | undefined;
  /** The cap (pages) this instance was made for. */
  pages: number;
}

/** How much a memory may have grown and still be recycled; also the engine maximum's margin over the cap. */
export const RECYCLE_SLACK_PAGES = 16;

interface Spare {
  instance: RunInstance;
  host: LateHost;
}

interface Warm {
  spare?: Spare;
  /** A zeroed memory for the next instance, and the cap (pages) it was made with. */
  memory?: { memory: WebAssembly.Memory; pages: number };
  /** Glue without deferred work: decided once, off the call path. */
  syncGlue?: boolean;
  scheduled?: boolean;
  runs?: number;
}

const warmState = new WeakMap<Prepared, Warm>();

/** Counters for tests and benches: proof that a path was taken, not a tuning knob. */
export const warmStats = { sparesBuilt: 0, sparesUsed: 0, memoriesRecycled: 0 };

/**
 * Components keeping a spare, most recently used last. Every spare holds a
 * wasm memory, and JavaScriptCore collects eagerly once four exist: keep few.
 */
const withSpare: Prepared[] = [];
export const MAX_SPARES = 3;

function warmOf(p: Prepared): Warm {
  let w = warmState.get(p);
  if (w === undefined) warmState.set(p, (w = {}));
  return w;
}

export function capPages(memoryBytes: number): number {
  return Math.min(65536, Math.floor(memoryBytes / PAGE));
}

/** Instantiate the component for one run (or a spare) with `imports` as the host. */
export async function instantiate(p: Prepared, pages: number, imports: Record<string, object>): Promise<RunInstance> {
  const pooled = memoryModuleFor(p);
  const main = pooled?.module ?? mainModuleFor(p, pages * PAGE);
  let memory: WebAssembly.Memory | undefined;
  if (pooled !== undefined) {
    const w = warmOf(p);
    const recycled = w.memory;
    w.memory = undefined;
    const { initialPages, maxPages } = pooled.limits;
    // The engine maximum leaves room for a recycled memory's extra pages; the run's own cap is __memory_limit.
    memory = recycled !== undefined && recycled.pages === pages ? recycled.memory : new WebAssembly.Memory({ initial: initialPages, maximum: Math.min(65536, pages + RECYCLE_SLACK_PAGES, maxPages ?? 65536) });
  }
  let mainInstance: WebAssembly.Instance | undefined;
  const instantiateCore = (module: WebAssembly.Module, coreImports?: WebAssembly.Imports): WebAssembly.Instance => {
    // Synchronous instantiation: the generated code then runs to completion without awaiting.
    if (module !== main) return new WebAssembly.Instance(module, coreImports);
    const withMemory = memory === undefined ? coreImports : { ...coreImports, [MEMORY_IMPORT_MODULE]: { [MEMORY_IMPORT_NAME]: memory } };
    mainInstance = new WebAssembly.Instance(module, withMemory);
    return mainInstance;
  };
  const getCoreModule = (name: string): WebAssembly.Module => {
    if (name === p.meta.mainModule) return main;
    const m = p.modules.get(name);
    if (m === undefined) throw new Error(`component asks for unknown core module ${name}`);
    return m;
  };
  const exports: unknown = await p.instantiate(getCoreModule, imports, instantiateCore);
  return { exports, main: mainInstance, memory, pages };
}

/**
 * The `__memory_limit` of a run: the cap, plus the pages the (recycled)
 * memory already has beyond the module's initial size, so the run can grow
 * by exactly as much as from a fresh memory; never past the module's own maximum.
 */
export function runLimitPages(p: Prepared, instance: RunInstance): number | undefined {
  const limits = memoryModuleFor(p)?.limits;
  if (instance.memory === undefined || limits === undefined) return undefined;
  const extra = instance.memory.buffer.byteLength / PAGE - limits.initialPages;
  return Math.min(instance.pages + extra, limits.maxPages ?? 65536);
}

/** The spare for this cap, taken (it serves exactly one run), or undefined. */
export function takeSpare(p: Prepared, pages: number): Spare | undefined {
  const w = warmState.get(p);
  const spare = w?.spare;
  if (w === undefined || spare === undefined) return undefined;
  w.spare = undefined;
  dropFromList(p);
  // A spare made for another cap is dropped: its memory's maximum is not this run's.
  if (spare.instance.pages !== pages) return undefined;
  warmStats.sparesUsed++;
  return spare;
}

/**
 * After a run: keep its memory for the next instance if it can be made as
 * good as new, then (when idle) build the next spare.
 */
export function afterRun(p: Prepared, instance: RunInstance, makeSpare: boolean): void {
  const w = warmOf(p);
  const { memory } = instance;
  // Deciding reads the glue (~1 ms): not on a fresh process's first call, which is latency-critical too.
  w.runs = (w.runs ?? 0) + 1;
  if (memory !== undefined && w.memory === undefined && (w.syncGlue ?? (w.runs > 1 ? (w.syncGlue = isSyncGlue(p)) : false))) {
    const limits = memoryModuleFor(p)?.limits;
    // A memory cannot shrink: one that grew much is let go rather than carried into every later run.
    if (limits !== undefined && memory.buffer.byteLength <= (limits.initialPages + RECYCLE_SLACK_PAGES) * PAGE) {
      new Uint8Array(memory.buffer).fill(0);
      w.memory = { memory, pages: instance.pages };
      warmStats.memoriesRecycled++;
    }
  }
  if (!makeSpare || w.scheduled === true) return;
  w.scheduled = true;
  const timer = setImmediate(() => {
    w.scheduled = false;
    buildSpare(p, w, instance.pages).catch(() => {
      // A component that cannot be instantiated before its run is bound
      // (a start function calling the host) just runs without a spare.
      w.syncGlue = false;
      w.memory = undefined;
    });
  });
  // Never keep a finished CLI run alive for a spare it will not use.
  timer.unref();
}

async function buildSpare(p: Prepared, w: Warm, pages: number): Promise<void> {
  w.syncGlue ??= isSyncGlue(p);
  if (!w.syncGlue || w.spare !== undefined) return;
  const host = createLateHost();
  const instance = await instantiate(p, pages, host.imports);
  if (w.spare !== undefined) return;
  w.spare = { instance, host };
  warmStats.sparesBuilt++;
  dropFromList(p);
  withSpare.push(p);
  while (withSpare.length > MAX_SPARES) {
    const old = withSpare.shift();
    if (old !== undefined) warmState.delete(old);
  }
}

/**
 * True when jco's glue for this component has no component-model async
 * function: then a call is over when `run` returns, and nothing of the
 * finished instance is scheduled to run later.
 */
function isSyncGlue(p: Prepared): boolean {
  try {
    const js = readFileSync(join(entryDir(p.cacheDir, p.meta.hash), JS_FILE), 'utf8');
    return !/\b(isAsync|funcTypeIsAsync|isManualAsync): true\b/.test(js);
  } catch {
    return false;
  }
}

function dropFromList(p: Prepared): void {
  const at = withSpare.indexOf(p);
  if (at >= 0) withSpare.splice(at, 1);
}

/** Drop every spare and recycled memory (tests; forgetLoaded). */
export function dropSpares(): void {
  for (const p of withSpare) warmState.delete(p);
  withSpare.length = 0;
}
