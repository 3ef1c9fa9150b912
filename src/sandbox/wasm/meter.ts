/** Fuel metering by rewriting a core module. */
import { encodeSections, parseSections, putSection, Reader, SectionId, WasmFormatError, Writer, type Section } from './binary.ts';
import { Op, readInstruction } from './instructions.ts';
import { readModuleInfo, type ModuleInfo } from './module-info.ts';

/**
 * Fuel metering by rewriting a core module.
 *
 * Adds a mutable i64 global exported as `__fuel`. At every function entry and
 * every `loop` header the rewritten code subtracts the static instruction
 * count of that region (nested loops excluded: they charge for themselves)
 * and traps with `unreachable` once the fuel is negative. The count depends
 * only on the code, so the same program with the same budget stops at the
 * same instruction every run.
 *
 * Also adds an i32 global `__memory_denied`, set when a `memory.grow` returns
 * -1, so the host can tell "the memory cap stopped it" from any other trap,
 * and an i32 global `__memory_limit` (pages; no limit until the host sets
 * it): a grow that would take the memory past it returns -1 without growing.
 * The host uses it when it hands an instance a recycled memory that is
 * already larger than the module's initial size: the run then gets exactly
 * the headroom a fresh memory would have (see src/sandbox/warm.ts).
 *
 * No import is added and nothing is renumbered: new globals and the one new
 * local per function that grows memory are appended after the existing ones.
 */

export const FUEL_EXPORT = '__fuel';
export const MEMORY_DENIED_EXPORT = '__memory_denied';
export const MEMORY_LIMIT_EXPORT = '__memory_limit';

/** Instrument `module`; the fuel global starts at i64 max (the host sets the budget after instantiation). */
export function meterModule(module: Uint8Array): Uint8Array {
  let sections = parseSections(module);
  const info = readModuleInfo(sections);
  if (info.exports.some((e) => e.name === FUEL_EXPORT)) throw new WasmFormatError('module is already metered');
  const fuel = info.importedGlobals + info.definedGlobals;
  const denied = fuel + 1;
  const limit = fuel + 2;
  const code = sections.find((s) => s.id === SectionId.code);
  if (code !== undefined) sections = putSection(sections, SectionId.code, meterCode(code.body, info, fuel, denied, limit));
  sections = putSection(sections, SectionId.global, addGlobals(sections));
  sections = putSection(sections, SectionId.export, addExports(sections, fuel, denied, limit));
  return encodeSections(sections);
}

function addGlobals(sections: readonly Section[]): Uint8Array {
  const old = sections.find((s) => s.id === SectionId.global);
  const r = new Reader(old?.body ?? new Uint8Array([0]));
  const count = r.u32();
  const w = new Writer(r.end + 40).u32(count + 3);
  w.bytes(r.bytes.subarray(r.pos, r.end));
  // (global (mut i64) (i64.const 0x7fff_ffff_ffff_ffff)), (global (mut i32) (i32.const 0)), (global (mut i32) (i32.const 65536))
  w.byte(0x7e).byte(0x01).byte(0x42).s64(0x7fff_ffff_ffff_ffffn).byte(0x0b);
  w.byte(0x7f).byte(0x01).byte(0x41).byte(0x00).byte(0x0b);
  w.byte(0x7f).byte(0x01).byte(0x41).s64(65536n).byte(0x0b);
  return w.finish();
}

function addExports(sections: readonly Section[], fuel: number, denied: number, limit: number): Uint8Array {
  const old = sections.find((s) => s.id === SectionId.export);
  const r = new Reader(old?.body ?? new Uint8Array([0]));
  const count = r.u32();
  const w = new Writer(r.end + 60).u32(count + 3);
  w.bytes(r.bytes.subarray(r.pos, r.end));
  w.name(FUEL_EXPORT).byte(0x03).u32(fuel);
  w.name(MEMORY_DENIED_EXPORT).byte(0x03).u32(denied);
  w.name(MEMORY_LIMIT_EXPORT).byte(0x03).u32(limit);
  return w.finish();
}

/** `fuel -= n; if (fuel < 0) unreachable` */
function charge(w: Writer, fuel: number, n: number): void {
  w.byte(0x23).u32(fuel).byte(0x42).s64(BigInt(n)).byte(0x7d).byte(0x24).u32(fuel);
  w.byte(0x23).u32(fuel).byte(0x42).byte(0x00).byte(0x53).byte(0x04).byte(0x40).byte(0x00).byte(0x0b);
}

function meterCode(body: Uint8Array, info: ModuleInfo, fuel: number, denied: number, limit: number): Uint8Array {
  const r = new Reader(body);
  const count = r.u32();
  if (count !== info.functionTypes.length) throw new WasmFormatError('function and code section counts differ');
  const w = new Writer(body.length + count * 40);
  w.u32(count);
  for (let i = 0; i < count; i++) {
    const size = r.u32();
    const end = r.pos + size;
    const params = info.typeParams[info.functionTypes[i] ?? -1];
    if (params === undefined) throw new WasmFormatError(`function ${i} has an unknown type`);
    w.sized(meterFunction(new Reader(body, r.pos, end), params, fuel, { denied, limit }));
    r.pos = end;
  }
  return w.finish();
}

interface Point {
  /** Byte offset in the body where the charge goes. */
  at: number;
  region: number;
}

function meterFunction(r: Reader, params: number, fuel: number, growGlobals: GrowGlobals): Uint8Array {
  const start = r.pos;
  // Locals: keep the declarations, count them so a scratch local can be appended.
  let locals = params;
  const groups = r.u32();
  const groupsStart = r.pos;
  for (let g = 0; g < groups; g++) {
    locals += r.u32();
    r.byte();
    if (r.bytes[r.pos - 1] === 0x63 || r.bytes[r.pos - 1] === 0x64) r.skipLeb();
  }
  const declsEnd = r.pos;

  // Pass 1: region of every instruction; where loops start; where memory.grow is.
  const counts: number[] = [0];
  const points: Point[] = [{ at: declsEnd, region: 0 }];
  const grows: { at: number; end: number }[] = [];
  const blocks: { loop: boolean; outer: number }[] = [];
  let region = 0;
  while (!r.done) {
    const at = r.pos;
    const op = readInstruction(r);
    counts[region] = (counts[region] ?? 0) + 1;
    if (op === Op.loop) {
      blocks.push({ loop: true, outer: region });
      region = counts.length;
      counts.push(0);
      points.push({ at: r.pos, region });
    } else if (op === Op.block || op === Op.if || op === Op.try || op === Op.tryTable) {
      blocks.push({ loop: false, outer: region });
    } else if (op === Op.end) {
      const b = blocks.pop();
      if (b !== undefined) region = b.outer;
    } else if (op === Op.memoryGrow) {
      grows.push({ at, end: r.pos });
    }
  }

  // Pass 2: copy the body, splicing in charges and the memory.grow check.
  const scratch = locals;
  const w = new Writer(r.end - start + points.length * 24 + grows.length * 16 + 8);
  if (grows.length > 0) {
    w.u32(groups + 1).bytes(r.bytes.subarray(groupsStart, declsEnd)).u32(1).byte(0x7f);
  } else {
    w.bytes(r.bytes.subarray(start, declsEnd));
  }
  let copied = declsEnd;
  let gi = 0;
  for (const p of points) {
    while (gi < grows.length && (grows[gi] as { at: number }).at < p.at) copied = spliceGrow(w, r.bytes, copied, grows[gi++] as { at: number; end: number }, scratch, growGlobals);
    w.bytes(r.bytes.subarray(copied, p.at));
    copied = p.at;
    charge(w, fuel, counts[p.region] ?? 1);
  }
  while (gi < grows.length) copied = spliceGrow(w, r.bytes, copied, grows[gi++] as { at: number; end: number }, scratch, growGlobals);
  w.bytes(r.bytes.subarray(copied, r.end));
  return w.finish();
}

interface GrowGlobals {
  denied: number;
  limit: number;
}

/**
 * `memory.grow` →
 * `local.tee t; memory.size; i32.add; global.get limit; i32.gt_u; if (result i32) i32.const -1 else local.get t; memory.grow end;`
 * `local.tee t; i32.const -1; i32.eq; if; i32.const 1; global.set denied; end; local.get t`
 * (a delta so large that the sum wraps passes the first check and is refused by the engine itself).
 */
function spliceGrow(w: Writer, bytes: Uint8Array, copied: number, grow: { at: number; end: number }, scratch: number, g: GrowGlobals): number {
  w.bytes(bytes.subarray(copied, grow.at));
  const memidx = bytes.subarray(grow.at + 1, grow.end);
  w.byte(0x22).u32(scratch).byte(0x3f).bytes(memidx).byte(0x6a).byte(0x23).u32(g.limit).byte(0x4b);
  w.byte(0x04).byte(0x7f).byte(0x41).byte(0x7f).byte(0x05).byte(0x20).u32(scratch).bytes(bytes.subarray(grow.at, grow.end)).byte(0x0b);
  w.byte(0x22).u32(scratch).byte(0x41).byte(0x7f).byte(0x46).byte(0x04).byte(0x40);
  w.byte(0x41).byte(0x01).byte(0x24).u32(g.denied).byte(0x0b).byte(0x20).u32(scratch);
  return grow.end;
}
