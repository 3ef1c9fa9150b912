/** Wiring of the WebAssembly tools for one moat process: catalog, index and watcher. */
import { join } from 'node:path';
import { compositionOptions } from './composition.ts';
import { moatPaths, type Env, type ToolLimitsConfig } from '../config/index.ts';
import type { Store } from '../store/index.ts';
import {
  bundledComponents,
  effectiveLimits,
  isSpecList,
  WasmCatalog,
  type ComponentIndex,
  type ToolFolder,
  type ToolRegistry,
} from '../tools/index.ts';

/**
 * Wiring of the WebAssembly tools for one moat process: the catalog
 * (bundled tools, `~/.config/moat/tools/`, the project's `.moat/tools/`),
 * its index in SQLite, the `[tools.<name>]` limits, and the watcher.
 */

/** `$XDG_CACHE_HOME/moat/components`: the sandbox's transpile cache. */
export function componentCacheDir(env: Env): string {
  return join(moatPaths(env).cacheDir, 'components');
}

export function toolFolders(env: Env, projectRoot: string): ToolFolder[] {
  return [
    { dir: join(moatPaths(env).configDir, 'tools'), origin: 'user' },
    { dir: join(projectRoot, '.moat', 'tools'), origin: 'project' },
  ];
}

/** The component index as the tools layer sees it, kept in the store. */
export function storeIndex(store: Store): ComponentIndex {
  return {
    get(hash) {
      const row = store.wasmTools.getComponent(hash);
      if (row === undefined || !isSpecList(row.specs)) return undefined;
      return { hash, format: row.specFormat, name: row.name, specs: row.specs, imports: row.imports, exportsCabiRealloc: row.exportsCabiRealloc };
    },
    put(r) {
      store.wasmTools.putComponent({ hash: r.hash, name: r.name, specFormat: r.format, specs: r.specs, imports: r.imports, exportsCabiRealloc: r.exportsCabiRealloc });
    },
  };
}

export interface WasmToolsOptions {
  env: Env;
  projectRoot: string;
  index: ComponentIndex;
  toolLimits: ToolLimitsConfig;
  /** Built-in names: drop-in tools may not take them. */
  registry?: ToolRegistry;
  warn(line: string): void;
}

export function createCatalog(o: WasmToolsOptions): WasmCatalog {
  const { tools, sandbox } = o.toolLimits;
  const ceiling = { fuel: sandbox.maxFuel, memoryBytes: sandbox.maxMemoryBytes, timeoutMs: sandbox.maxTimeoutMs };
  const registry = o.registry;
  return new WasmCatalog({
    cacheDir: componentCacheDir(o.env),
    index: o.index,
    env: o.env,
    folders: toolFolders(o.env, o.projectRoot),
    bundled: () => bundledComponents(),
    // A tool's own name is more specific than its component's: `[tools.base64_decode]` beats `[tools.base64]`.
    limitsFor: (component, tool, manifest) => effectiveLimits(manifest, { ...tools[component], ...tools[tool] }, ceiling),
    ...(registry === undefined ? {} : { reserved: () => new Set(registry.core().map((t) => t.name)) }),
    warn: o.warn,
    ...(compositionOptions().allowPrivateNetwork === true ? { allowPrivateNetwork: true } : {}),
  });
}

/**
 * Loads the catalog into `registry` and starts watching the folders. The
 * returned function stops the watcher.
 */
export async function attachWasmTools(registry: ToolRegistry, o: Omit<WasmToolsOptions, 'registry'>): Promise<{ catalog: WasmCatalog; close(): void }> {
  const catalog = createCatalog({ ...o, registry });
  await catalog.load();
  registry.addSource(catalog);
  catalog.watch();
  return { catalog, close: () => catalog.close() };
}
