/**
 * The modules a `bun build --compile` executable embeds, read from the
 * standalone module graph Bun appends to it (StandaloneModuleGraph, as Bun
 * 1.4.5 writes it: the records, then 32 bytes of offsets, then
 * "\n---- Bun! ----\n"). For scripts/bench/size.ts (what the binary weighs) and
 * first-request-modules.ts (what `-p` loads before its first
 * request). Undefined when this Bun writes something else.
 */

/** One embedded module: its name, its text, and where its parts lie in the graph (offsets into it). */
export interface CompiledModule {
  /** As Bun names it: `/$bunfs/root/chunk-….js`. */
  name: string;
  contents: Buffer;
  /** The (offset, length) pairs of the record: name, contents, source map, bytecode, module info, bytecode origin. */
  parts: (readonly [number, number])[];
}

export interface CompiledGraph {
  modules: CompiledModule[];
  /** Bytes of the graph, and of its record table: [offset, end). */
  byteCount: number;
  table: readonly [number, number];
}

/** Six (offset, length) pairs and four bytes of flags. */
const RECORD = 52;

export function readCompiledGraph(file: Buffer): CompiledGraph | undefined {
  const trailer = file.lastIndexOf('\n---- Bun! ----\n');
  if (trailer < 32) return undefined;
  const offsets = trailer - 32;
  const byteCount = Number(file.readBigUInt64LE(offsets));
  const base = offsets - byteCount;
  const modulesAt = file.readUInt32LE(offsets + 8);
  const modulesLen = file.readUInt32LE(offsets + 12);
  if (base < 0 || modulesLen % RECORD !== 0 || modulesAt + modulesLen > byteCount) return undefined;
  const modules: CompiledModule[] = [];
  for (let i = 0; i < modulesLen / RECORD; i++) {
    const at = base + modulesAt + i * RECORD;
    const parts = Array.from({ length: 6 }, (_, k) => [file.readUInt32LE(at + 8 * k), file.readUInt32LE(at + 8 * k + 4)] as const);
    const [nameAt, nameLen] = parts[0] as readonly [number, number];
    const [contentsAt, contentsLen] = parts[1] as readonly [number, number];
    if (nameAt + nameLen > byteCount || contentsAt + contentsLen > byteCount) return undefined;
    const name = file.toString('utf8', base + nameAt, base + nameAt + nameLen);
    if (!name.startsWith('/$bunfs/') && !name.startsWith('B:/~BUN/')) return undefined;
    modules.push({ name, contents: file.subarray(base + contentsAt, base + contentsAt + contentsLen), parts });
  }
  return { modules, byteCount, table: [modulesAt, modulesAt + modulesLen] };
}
