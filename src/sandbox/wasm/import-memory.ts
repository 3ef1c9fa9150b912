/** Rewrites a module so the host provides its memory. */
import { encodeSections, parseSections, putSection, Reader, SectionId, skipLimits, skipValType, WasmFormatError, Writer } from './binary.ts';
import { readMemories, type MemoryLimits } from './memory-cap.ts';
import { readModuleInfo } from './module-info.ts';

/**
 * Turns a module's one defined memory into an import, so the host creates
 * the memory (with the cap as its maximum) instead of the module.
 *
 * Why: JavaScriptCore reserves a 4 GiB+ "fast memory" for every wasm memory
 * and allows only 8 of them; from the 4th live one on, every new memory
 * triggers a full garbage collection (and past the 8th a synchronous one plus
 * slower bounds-checked code). One fresh memory per tool call made a full GC
 * every two or three calls. With the memory imported, a finished call's
 * memory can be zero-filled and handed to the next instance: that instance
 * still starts from all zeroes plus its own data segments, exactly like a
 * fresh memory, and no new fast memory is reserved.
 *
 * The memory keeps index 0 (imported memories come first, and there was no
 * other), so no instruction changes. The import declares the module's own
 * limits; a host memory with the same initial size and a lower maximum is a
 * valid match.
 */

export const MEMORY_IMPORT_MODULE = 'moat';
export const MEMORY_IMPORT_NAME = 'memory';

export interface ImportedMemoryModule {
  bytes: Uint8Array;
  limits: MemoryLimits;
}

/** The rewritten module, or undefined when it does not define exactly one memory (then it is run as is). */
export function importMemory(module: Uint8Array): ImportedMemoryModule | undefined {
  let sections = parseSections(module);
  const info = readModuleInfo(sections);
  if (info.importsMemory || info.definedMemories !== 1) return undefined;
  const memories = readMemories(module);
  const limits = memories[0];
  if (limits === undefined) return undefined;

  const old = sections.find((s) => s.id === SectionId.import);
  const r = new Reader(old?.body ?? new Uint8Array([0]));
  const count = r.u32();
  const w = new Writer(r.end + 32).u32(count + 1);
  // Validate what is copied: a truncated import section must not be patched blindly.
  const start = r.pos;
  for (let i = 0; i < count; i++) skipImport(r);
  if (r.pos !== r.end) throw new WasmFormatError('trailing bytes in the import section');
  w.bytes(r.bytes.subarray(start, r.end));
  w.name(MEMORY_IMPORT_MODULE).name(MEMORY_IMPORT_NAME).byte(0x02);
  if (limits.maxPages === undefined) w.byte(0x00).u32(limits.initialPages);
  else w.byte(0x01).u32(limits.initialPages).u32(limits.maxPages);

  sections = putSection(sections, SectionId.import, w.finish());
  sections = sections.filter((s) => s.id !== SectionId.memory);
  return { bytes: encodeSections(sections), limits };
}

function skipImport(r: Reader): void {
  r.name();
  r.name();
  const kind = r.byte();
  switch (kind) {
    case 0x00:
      r.u32();
      return;
    case 0x01:
      skipValType(r);
      skipLimits(r);
      return;
    case 0x02:
      skipLimits(r);
      return;
    case 0x03:
      skipValType(r);
      r.byte();
      return;
    case 0x04:
      r.byte();
      r.u32();
      return;
    default:
      throw new WasmFormatError(`unknown import kind ${kind}`);
  }
}
