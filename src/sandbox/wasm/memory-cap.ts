/** Caps a module's memory maximum. */
import { encodeSections, parseSections, putSection, Reader, SectionId, WasmFormatError, Writer } from './binary.ts';

/**
 * The memory cap: rewrite each defined memory's maximum to at most `pages`
 * (64 KiB each). A memory with a maximum is a subtype of one without, so the
 * adapter module, which imports this memory with no maximum, still links.
 * `memory.grow` past the cap then returns -1 and the guest's allocator fails
 * cleanly (malloc returns NULL, Rust's try_reserve errs, or the tool traps).
 */

export const PAGE = 65536;

export interface MemoryLimits {
  initialPages: number;
  maxPages: number | undefined;
}

/** The limits of the memories a module defines (memory64 and shared memories are refused). */
export function readMemories(module: Uint8Array): MemoryLimits[] {
  const section = parseSections(module).find((s) => s.id === SectionId.memory);
  if (section === undefined) return [];
  const r = new Reader(section.body);
  const n = r.u32();
  const out: MemoryLimits[] = [];
  for (let i = 0; i < n; i++) {
    const flags = r.byte();
    if (flags > 1) throw new WasmFormatError(`unsupported memory (flags 0x${flags.toString(16)}: shared or memory64)`);
    const initialPages = r.u32();
    out.push({ initialPages, maxPages: flags === 1 ? r.u32() : undefined });
  }
  return out;
}

/** `module` with every defined memory's maximum lowered to `pages`. Throws when a memory needs more from the start. */
export function capMemory(module: Uint8Array, pages: number): Uint8Array {
  const sections = parseSections(module);
  const memories = readMemories(module);
  if (memories.length === 0) return module;
  const w = new Writer(16).u32(memories.length);
  for (const m of memories) {
    if (m.initialPages > pages) throw new WasmFormatError(`module needs ${m.initialPages} pages at start, over the cap of ${pages}`);
    w.byte(0x01).u32(m.initialPages).u32(Math.min(pages, m.maxPages ?? pages));
  }
  return encodeSections(putSection(sections, SectionId.memory, w.finish()));
}
