/** Registers one component: its specs, imports and tools. */
import { checkImports, loadCached, loadComponent, runComponent, sha256, type Limits, type LoadedComponent } from '../../sandbox/index.ts';
import { MoatError } from '../../util/index.ts';
import type { AnyTool } from '../types.ts';
import { installEntry, type BundledComponent } from './bundled.ts';
import type { HelpRunner } from './discover.ts';
import type { ManifestLimits, ToolManifest } from './manifest.ts';
import { SPEC_FORMAT, type ComponentIndex, type ComponentRecord } from './spec-cache.ts';
import { toolName, type ToolSpecFromHelp } from './spec.ts';
import { effectiveLimits, wasmTool, type ToolOrigin } from './wasm-tool.ts';

/**
 * One component → its record (specs, imports) and its tools. The record
 * comes from the index when the bytes were seen before (no load, no help
 * run: that is what keeps startup fast); otherwise the component is loaded
 * (transpiled on a cache miss, refused if it imports what the host does not
 * provide), asked for its help, and the result is indexed.
 */

export type Env = Readonly<Record<string, string | undefined>>;

export interface RegisterContext {
  /** The sandbox's transpile cache. */
  cacheDir: string;
  index: ComponentIndex;
  env: Env;
  /** Limits of one tool (config overrides and the ceiling applied); defaults to manifest ⊕ DEFAULT_LIMITS. */
  limitsFor?(component: string, tool: string, manifest: ManifestLimits): Limits;
  /** See GrantContext.allowPrivateNetwork: the composition root's, for tests only. */
  allowPrivateNetwork?: boolean;
}

export interface ComponentSource {
  name: string;
  origin: ToolOrigin;
  manifest: ToolManifest;
  /** Drop-in and validated components: the bytes. Bundled ones in the binary: none (see `bundled`). */
  bytes?: Uint8Array;
  bundled?: BundledComponent;
}

export interface Registered {
  name: string;
  origin: ToolOrigin;
  hash: string;
  record: ComponentRecord;
  tools: AnyTool[];
  warnings: string[];
}

/** Budget for help runs at registration: help is cheap, and an untrusted tool gets no more than this. */
const HELP_LIMITS: Limits = { fuel: 500_000_000, memoryBytes: 64 * 1024 * 1024, timeoutMs: 5000, maxOutputBytes: 256 * 1024 };

export function reallocWarning(name: string): string {
  return (
    `${name}: its main module does not export cabi_realloc. Built this way (older Rust, C or AssemblyScript toolchains), ` +
    `the WASI adapter keeps its state in a page the tool's own allocator may later overwrite, which corrupts memory once the ` +
    `heap grows (typically a trap "assertion failed at adapter line 2857"). Rebuild it exporting cabi_realloc (moat tool init shows how).`
  );
}

/** A runner for discoverTool: each help run is a fresh sandboxed instance with no grants. */
export function helpRunner(loaded: LoadedComponent, argv0: string, limits: Limits = HELP_LIMITS): HelpRunner {
  return async (args) => {
    const r = await runComponent(loaded, { args: [argv0, ...args], env: {}, preopens: [], limits, isolation: 'in-process' });
    if (r.limitHit !== undefined || r.trap !== undefined) {
      throw new MoatError('tool', `${argv0} ${args.join(' ')}: ${r.message ?? 'stopped'}`, { user: true });
    }
    return r;
  };
}

/** Specs from the help of a loaded component. */
export async function discoverSpecs(loaded: LoadedComponent, name: string, manifestLimits: ManifestLimits = {}): Promise<ToolSpecFromHelp[]> {
  const limits = { ...HELP_LIMITS, ...(manifestLimits.memoryBytes === undefined ? {} : { memoryBytes: Math.max(manifestLimits.memoryBytes, HELP_LIMITS.memoryBytes) }) };
  // Loaded on first use: with task-call, output-validator, hook-process, process-grants, discover and wasm-call up front, -p's first byte came 5.4 ms later (CPU +2.9 ms, RSS +1.1 MB; startup bench, n=20).
  const { discoverTool } = await import('./discover.ts');
  const specs = await discoverTool(helpRunner(loaded, name, limits));
  if (!Array.isArray(specs)) throw new MoatError('tool', `${name}: cannot read its --help: ${specs.message}`, { user: true });
  return specs;
}

/** The model-facing names follow the file name, so `moat tool rm NAME` and the tool names agree. */
export function namedSpecs(name: string, specs: readonly ToolSpecFromHelp[]): ToolSpecFromHelp[] {
  return specs.map((s) => ({ ...s, name: toolName([name, ...s.argvPrefix]) }));
}

/** Loads a component: from its bytes, or for a bundled one from its embedded precompiled entry. */
export async function loadSource(src: ComponentSource, hash: string, cacheDir: string): Promise<LoadedComponent> {
  const b = src.bundled;
  if (src.bytes === undefined && b?.entry !== undefined) {
    await installEntry(cacheDir, hash, b.entry);
    const loaded = await loadCached(cacheDir, hash);
    if (loaded === undefined) throw new MoatError('internal', `bundled tool ${src.name}: its precompiled entry does not load`);
    return loaded;
  }
  const bytes = src.bytes ?? (await b?.bytes?.());
  if (bytes === undefined) throw new MoatError('internal', `${src.name}: no component bytes`);
  return loadComponent(bytes, { cacheDir, name: src.name });
}

export async function registerComponent(src: ComponentSource, ctx: RegisterContext): Promise<Registered> {
  const hash = src.bundled?.hash ?? sha256(src.bytes ?? new Uint8Array(0));
  let loading: Promise<LoadedComponent> | undefined;
  const component = (): Promise<LoadedComponent> => {
    if (loading === undefined) {
      loading = loadSource(src, hash, ctx.cacheDir);
      // A failed load is retried on the next call (a full disk, a cache folder removed meanwhile).
      void loading.catch(() => (loading = undefined));
    }
    return loading;
  };
  // A bundled tool's specs were worked out at build time: the index (the database) is asked only about other tools.
  let record: ComponentRecord | undefined =
    src.bundled?.specs === undefined ? ctx.index.get(hash) : { hash, format: SPEC_FORMAT, name: src.name, specs: src.bundled.specs, imports: [], exportsCabiRealloc: true };
  if (record?.format !== SPEC_FORMAT) record = undefined;
  if (record === undefined) {
    const loaded = await component();
    record = {
      hash,
      format: SPEC_FORMAT,
      name: src.name,
      specs: await discoverSpecs(loaded, src.name, src.manifest.limits),
      imports: loaded.imports,
      exportsCabiRealloc: loaded.exportsCabiRealloc,
    };
    ctx.index.put(record);
  }
  // Indexed before the import policy changed? The policy decides now, not when the record was written.
  const refused = checkImports(record.imports);
  if (refused.length > 0) throw new MoatError('tool', `${src.name} refused: it ${refused.join('; it ')}`, { user: true });
  const warnings = record.exportsCabiRealloc ? [] : [reallocWarning(src.name)];
  const tools = namedSpecs(src.name, record.specs).map((spec) =>
    wasmTool({
      spec,
      manifest: src.manifest,
      origin: src.origin,
      hash,
      argv0: src.name,
      component,
      limits: ctx.limitsFor?.(src.name, spec.name, src.manifest.limits) ?? effectiveLimits(src.manifest.limits),
      env: ctx.env,
      ...(ctx.allowPrivateNetwork === true ? { allowPrivateNetwork: true } : {}),
    }),
  );
  return { name: src.name, origin: src.origin, hash, record, tools, warnings };
}
