/** The on-disk cache of transpiled components. */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportsFunction, readModuleInfo } from './wasm/module-info.ts';
import { parseSections } from './wasm/binary.ts';
import { readMemories } from './wasm/memory-cap.ts';
import { meterModule } from './wasm/meter.ts';
import { optimizeGlue } from './glue-optimize.ts';
import type { TranspileOutput } from './transpile.ts';

/**
 * The on-disk cache of transpiled components, one folder per component,
 * named by the sha256 of its bytes: `<cacheDir>/<sha256>/` holds the
 * generated `component.js`, its core modules, the metered main module and
 * `meta.json`. Different bytes are a different folder, so an entry is never
 * stale; an entry is written to a temporary folder and renamed into place, so
 * a crash never leaves half of one.
 */

/** Bump when the layout or the rewriters change: old entries are then rebuilt. */
export const CACHE_FORMAT = 6;

export const JS_FILE = 'component.js';
export const METERED_FILE = 'main.metered.wasm';
const META_FILE = 'meta.json';

export interface CacheMeta {
  format: number;
  hash: string;
  imports: string[];
  exports: string[];
  /** File name of the tool's own core module (the one that is metered and capped). */
  mainModule: string;
  /** All core modules the JS asks for, main included. */
  coreModules: string[];
  exportsCabiRealloc: boolean;
  /** Pages the main module's memory needs at start. */
  initialPages: number;
}

function isMeta(v: unknown): v is CacheMeta {
  if (typeof v !== 'object' || v === null) return false;
  const m = v as Record<string, unknown>;
  return (
    m.format === CACHE_FORMAT &&
    typeof m.hash === 'string' &&
    Array.isArray(m.imports) &&
    Array.isArray(m.exports) &&
    typeof m.mainModule === 'string' &&
    Array.isArray(m.coreModules) &&
    typeof m.exportsCabiRealloc === 'boolean' &&
    typeof m.initialPages === 'number'
  );
}

export function entryDir(cacheDir: string, hash: string): string {
  return join(cacheDir, hash);
}

/** The entry's metadata, or undefined when there is no complete entry of the current format. */
export function readEntry(cacheDir: string, hash: string): CacheMeta | undefined {
  const path = join(entryDir(cacheDir, hash), META_FILE);
  if (!existsSync(path)) return undefined;
  try {
    const meta: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return isMeta(meta) && meta.hash === hash ? meta : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The tool's own core module: the one that defines a memory (the adapter and
 * the glue shims import theirs or have none); the largest if several do.
 */
function pickMain(files: Map<string, Uint8Array>): string {
  let best: string | undefined;
  let bestSize = -1;
  for (const [name, bytes] of files) {
    if (!name.endsWith('.wasm')) continue;
    const info = readModuleInfo(parseSections(bytes));
    if (info.definedMemories > 0 && bytes.length > bestSize) {
      best = name;
      bestSize = bytes.length;
    }
  }
  if (best === undefined) throw new Error('component has no core module that defines a memory');
  return best;
}

/** Instrument and write a fresh entry; returns its metadata. */
export function writeEntry(cacheDir: string, hash: string, t: TranspileOutput): CacheMeta {
  const mainModule = pickMain(t.files);
  const main = t.files.get(mainModule) as Uint8Array;
  const info = readModuleInfo(parseSections(main));
  const memories = readMemories(main);
  const meta: CacheMeta = {
    format: CACHE_FORMAT,
    hash,
    imports: t.imports,
    exports: t.exports,
    mainModule,
    coreModules: [...t.files.keys()].filter((n) => n.endsWith('.wasm')),
    exportsCabiRealloc: exportsFunction(info, 'cabi_realloc'),
    initialPages: memories[0]?.initialPages ?? 0,
  };
  const final = entryDir(cacheDir, hash);
  const tmp = `${final}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  mkdirSync(tmp, { recursive: true });
  try {
    for (const [name, bytes] of t.files) {
      writeFileSync(join(tmp, name === t.jsFile ? JS_FILE : name), name === t.jsFile ? optimizeGlue(new TextDecoder().decode(bytes)) : bytes);
    }
    writeFileSync(join(tmp, METERED_FILE), meterModule(main));
    writeFileSync(join(tmp, META_FILE), JSON.stringify(meta));
    if (existsSync(final)) {
      // An entry of an older format: move it aside first (rename is atomic, rm is not).
      const old = `${final}.old-${process.pid}-${Math.random().toString(36).slice(2)}`;
      renameSync(final, old);
      rmSync(old, { recursive: true, force: true });
    }
    renameSync(tmp, final);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    // Another process may have renamed an identical entry into place first.
    const other = readEntry(cacheDir, hash);
    if (other !== undefined) return other;
    throw e;
  }
  return meta;
}
