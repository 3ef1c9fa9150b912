/** Loads a component: cache, transpile, meter and prepare it for runs. */
import { errorMessage, MoatError } from '../util/index.ts';
import { readComponentImports } from './wasm/component-imports.ts';
import { entryDir, JS_FILE, METERED_FILE, readEntry, writeEntry, type CacheMeta } from './component-cache.ts';
import { checkImports } from './import-policy.ts';
import { transpileComponent } from './transpile.ts';
import type { LoadedComponent } from './types.ts';
import { importMemory } from './wasm/import-memory.ts';
import { capMemory, PAGE, type MemoryLimits } from './wasm/memory-cap.ts';
import { join } from 'node:path';
import { sha256 } from './hash.ts';

/**
 * Loading: bytes → a component ready to run. Disk cache first (no transpile on
 * a hit), then a process-wide in-memory table keyed by hash that keeps the
 * imported JS module and the compiled `WebAssembly.Module`s, so a warm run
 * does no per-call compilation at all.
 */

/** jco's generated `instantiate` (instantiation mode "async"). */
export type InstantiateFn = (
  getCoreModule: (name: string) => WebAssembly.Module,
  imports: Record<string, object>,
  instantiateCore: (module: WebAssembly.Module, imports?: WebAssembly.Imports) => WebAssembly.Instance,
) => unknown;

/** What a run needs, beyond the public LoadedComponent. */
export interface Prepared {
  meta: CacheMeta;
  cacheDir: string;
  instantiate: InstantiateFn;
  /** Compiled core modules other than the main one. */
  modules: Map<string, WebAssembly.Module>;
  meteredBytes: Uint8Array;
  /** Compiled main module per memory cap (in pages): for a main module whose memory cannot be imported. */
  mainByCap: Map<number, WebAssembly.Module>;
  /** The main module with its memory imported (compiled once for every cap); null when it cannot be. */
  memoryModule?: MemoryModule | null;
}

export interface MemoryModule {
  module: WebAssembly.Module;
  limits: MemoryLimits;
}

const prepared = new Map<string, Prepared>();
const byLoaded = new WeakMap<LoadedComponent, Prepared>();

export interface LoadOptions {
  /** `$XDG_CACHE_HOME/moat/components` in the app; a temp dir in tests. */
  cacheDir: string;
  /** For messages: the tool's name or path. */
  name?: string;
}


function isInstantiate(m: unknown): m is { instantiate: InstantiateFn } {
  return typeof m === 'object' && m !== null && 'instantiate' in m && typeof m.instantiate === 'function';
}

async function prepare(cacheDir: string, meta: CacheMeta): Promise<Prepared> {
  const dir = entryDir(cacheDir, meta.hash);
  const meteredBytes = await Bun.file(join(dir, METERED_FILE)).bytes();
  // The main module is compiled here too, with its memory imported, alongside the others: the engine
  // compiles in the background, so the first run does not pay a synchronous compile of the largest module.
  const rewritten = importMemory(meteredBytes);
  const [mod, memoryModule, ...compiled] = await Promise.all([
    import(join(dir, JS_FILE)) as Promise<unknown>,
    rewritten === undefined ? null : WebAssembly.compile(rewritten.bytes as Uint8Array<ArrayBuffer>).then((module) => ({ module, limits: rewritten.limits })),
    ...meta.coreModules.filter((n) => n !== meta.mainModule).map(async (n) => [n, await WebAssembly.compile(await Bun.file(join(dir, n)).bytes())] as const),
  ]);
  if (!isInstantiate(mod)) throw new MoatError('internal', `cached component ${meta.hash} has no instantiate export`);
  return {
    meta,
    cacheDir,
    instantiate: mod.instantiate,
    modules: new Map(compiled as (readonly [string, WebAssembly.Module])[]),
    meteredBytes,
    mainByCap: new Map(),
    memoryModule: memoryModule as MemoryModule | null,
  };
}

function publicView(p: Prepared, fromCache: boolean): LoadedComponent {
  const loaded: LoadedComponent = { hash: p.meta.hash, imports: p.meta.imports, exportsCabiRealloc: p.meta.exportsCabiRealloc, fromCache };
  byLoaded.set(loaded, p);
  return loaded;
}

/**
 * Load a component from its bytes. Refuses (MoatError 'tool') a component
 * importing an interface the host does not provide, naming it.
 */
export async function loadComponent(bytes: Uint8Array, opts: LoadOptions): Promise<LoadedComponent> {
  const hash = sha256(bytes);
  const warm = prepared.get(hash);
  if (warm !== undefined && warm.cacheDir === opts.cacheDir) return publicView(warm, true);
  let meta = readEntry(opts.cacheDir, hash);
  const fromCache = meta !== undefined;
  if (meta === undefined) {
    let imports: string[];
    try {
      imports = readComponentImports(bytes);
    } catch (e) {
      throw new MoatError('tool', `${opts.name ?? 'component'}: ${errorMessage(e)}`, { user: true, cause: e });
    }
    // Refused before transpiling: a component the host would not run costs nothing more.
    refuseImports(imports, opts.name);
    meta = writeEntry(opts.cacheDir, hash, { ...(await transpileComponent(bytes, 'component')), imports });
  }
  refuseImports(meta.imports, opts.name);
  const p = await prepare(opts.cacheDir, meta);
  prepared.set(hash, p);
  return publicView(p, fromCache);
}

/** Load an entry that is already in the cache (the child runner); undefined when it is not. */
export async function loadCached(cacheDir: string, hash: string): Promise<LoadedComponent | undefined> {
  const warm = prepared.get(hash);
  if (warm !== undefined && warm.cacheDir === cacheDir) return publicView(warm, true);
  const meta = readEntry(cacheDir, hash);
  if (meta === undefined) return undefined;
  const p = await prepare(cacheDir, meta);
  prepared.set(hash, p);
  return publicView(p, true);
}

function refuseImports(imports: readonly string[], name: string | undefined): void {
  const problems = checkImports(imports);
  if (problems.length > 0) {
    throw new MoatError('tool', `${name ?? 'component'} refused: it ${problems.join('; it ')}`, { user: true });
  }
}

export function preparedFor(loaded: LoadedComponent): Prepared {
  const p = byLoaded.get(loaded);
  if (p === undefined) throw new MoatError('internal', 'runComponent needs a component returned by loadComponent');
  return p;
}

/** The main module compiled with its memory capped at `bytes` (rounded down to whole pages). */
export function mainModuleFor(p: Prepared, bytes: number): WebAssembly.Module {
  const pages = Math.min(65536, Math.floor(bytes / PAGE));
  let m = p.mainByCap.get(pages);
  if (m === undefined) {
    m = new WebAssembly.Module(capMemory(p.meteredBytes, pages) as Uint8Array<ArrayBuffer>);
    p.mainByCap.set(pages, m);
  }
  return m;
}

/**
 * The main module with its memory imported, so the host makes the memory
 * (capped by its maximum) and can recycle it; undefined for a module with no
 * or several memories, which then runs through mainModuleFor.
 */
export function memoryModuleFor(p: Prepared): MemoryModule | undefined {
  if (p.memoryModule === undefined) {
    const rewritten = importMemory(p.meteredBytes);
    p.memoryModule = rewritten === undefined ? null : { module: new WebAssembly.Module(rewritten.bytes as Uint8Array<ArrayBuffer>), limits: rewritten.limits };
  }
  return p.memoryModule ?? undefined;
}

/** Drop the in-memory modules (tests; a hot-reload that deletes a tool). */
export function forgetLoaded(): void {
  prepared.clear();
}
