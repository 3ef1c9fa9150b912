/** The first-party WebAssembly tools that ship with moat. */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isCompiledBinary } from '../../sandbox/index.ts';
import type { ToolManifest } from './manifest.ts';
import type { ToolSpecFromHelp } from './spec.ts';
import { isSpecList } from './spec-cache.ts';

/**
 * The first-party tools that ship with moat. Inside the compiled binary they
 * come from a module generated at build time (scripts/embed-tools.ts): the
 * parsed specs, the manifests, and the transpiled, metered cache entry of
 * each component, in one zstd archive. The first call copies that entry into the
 * transpile cache, so no bundled tool is ever transpiled (nor asked for its
 * help) on a user's machine. Under `bun run` / `bun test` they come from
 * dist/tools (built by scripts/build-tools.ts) and go through the same
 * cache as any other component.
 */

export interface BundledComponent {
  /** The component's name (its file name without `.wasm`): `base64`. */
  name: string;
  hash: string;
  /** For messages: where the manifest came from. */
  manifestFile: string;
  manifestText: string | undefined;
  /** Parsed at build time (the binary): no TOML parse and no zod on the startup path. */
  manifest?: ToolManifest;
  /** Parsed at build time; absent when they must be discovered (and cached) at run time. */
  specs: ToolSpecFromHelp[] | undefined;
  /** The component's bytes, when they are at hand (not embedded in the binary: the entry below replaces them). */
  bytes?: () => Promise<Uint8Array>;
  /** The precompiled cache entry: the embedded archive, and each file's place in it once decompressed. */
  entry?: PackedEntry;
}

/** Where a bundled tool's cache entry lies: file name → [offset, length] in the decompressed archive. */
export interface PackedEntry {
  archive: string;
  files: Record<string, readonly [number, number]>;
}

/** The shape of the generated module `moat:bundled-tools`. */
export interface EmbeddedTool {
  name: string;
  hash: string;
  manifest: string | null;
  /** The manifest, parsed at build time. */
  parsedManifest: ToolManifest | null;
  specs: unknown;
  /** File name → [offset, length] in the decompressed BUNDLED_ARCHIVE. */
  entry: Record<string, readonly [number, number]>;
}

interface IndexFile {
  tools: { name: string; file: string; manifest?: string; sha256: string }[];
}

function isIndexFile(v: unknown): v is IndexFile {
  return typeof v === 'object' && v !== null && 'tools' in v && Array.isArray(v.tools);
}

/** dist/tools beside the sources (dev and tests). */
export const DEV_BUNDLED_DIR = join(import.meta.dir, '..', '..', '..', 'dist', 'tools');

function isEmbeddedList(v: unknown): v is EmbeddedTool[] {
  return Array.isArray(v) && v.every((t: unknown) => typeof t === 'object' && t !== null && 'hash' in t && 'entry' in t);
}

async function embedded(): Promise<BundledComponent[]> {
  // Resolved by the build (scripts/build.ts) to the module scripts/embed-tools.ts generates; an import() because it
  // exists only in the binary, not to defer it (statically: -p's first byte and the first tool call within 2 ms).
  const m: unknown = await import('moat:bundled-tools');
  const tools: unknown = typeof m === 'object' && m !== null && 'BUNDLED_TOOLS' in m ? m.BUNDLED_TOOLS : undefined;
  const archive: unknown = typeof m === 'object' && m !== null && 'BUNDLED_ARCHIVE' in m ? m.BUNDLED_ARCHIVE : undefined;
  if (!isEmbeddedList(tools) || typeof archive !== 'string') return [];
  return tools.map((t) => ({
    name: t.name,
    hash: t.hash,
    manifestFile: `${t.name}.toml (bundled)`,
    manifestText: t.manifest ?? undefined,
    ...(t.parsedManifest === null ? {} : { manifest: t.parsedManifest }),
    specs: isSpecList(t.specs) ? t.specs : undefined,
    entry: { archive, files: t.entry },
  }));
}

/** Reads dist/tools/index.json and, when present and current, the specs written beside it. */
export function fromDirectory(dir: string): BundledComponent[] {
  const indexFile = join(dir, 'index.json');
  if (!existsSync(indexFile)) return [];
  const index: unknown = JSON.parse(readFileSync(indexFile, 'utf8'));
  if (!isIndexFile(index)) return [];
  let specs: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dir, 'specs.json'), 'utf8'));
    if (typeof parsed === 'object' && parsed !== null) specs = parsed as Record<string, unknown>;
  } catch {
    // No specs.json: discovered at run time and cached by hash like any component.
  }
  return index.tools.map((t) => {
    const s = specs[t.sha256];
    const manifestPath = t.manifest === undefined ? undefined : join(dir, t.manifest);
    return {
      name: t.name,
      hash: t.sha256,
      manifestFile: manifestPath ?? `${t.name}.toml`,
      manifestText: manifestPath !== undefined && existsSync(manifestPath) ? readFileSync(manifestPath, 'utf8') : undefined,
      specs: isSpecList(s) ? s : undefined,
      bytes: async () => new Uint8Array(readFileSync(join(dir, t.file))),
    };
  });
}

/** The bundled components: embedded in the binary, or from `devDir` (dist/tools) when running from source. */
export async function bundledComponents(devDir: string = DEV_BUNDLED_DIR): Promise<BundledComponent[]> {
  return isCompiledBinary() ? embedded() : fromDirectory(devDir);
}

/**
 * Writes an embedded precompiled entry into the transpile cache, unless it is
 * there. The layout is the sandbox's (`<cacheDir>/<sha256>/`, see
 * src/sandbox/component-cache.ts); it is written to a temporary folder and
 * renamed into place, so a crash or a second moat never sees half of one.
 */
export async function installEntry(cacheDir: string, hash: string, entry: PackedEntry): Promise<void> {
  const final = join(cacheDir, hash);
  if (existsSync(join(final, 'meta.json'))) return;
  const tmp = `${final}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  mkdirSync(tmp, { recursive: true });
  try {
    // The whole archive (about 4 MB, all the tools) in a few ms, once per tool and machine.
    const unpacked = Bun.zstdDecompressSync(await Bun.file(entry.archive).bytes());
    for (const [name, [offset, length]] of Object.entries(entry.files)) writeFileSync(join(tmp, name), unpacked.subarray(offset, offset + length));
    rmSync(final, { recursive: true, force: true });
    renameSync(tmp, final);
  } catch (e) {
    rmSync(tmp, { recursive: true, force: true });
    // Another process may have installed the same entry first.
    if (!existsSync(join(final, 'meta.json'))) throw e;
  }
}
