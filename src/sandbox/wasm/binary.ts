/**
 * Just enough of the WebAssembly binary format to rewrite a core module:
 * LEB128, a byte reader, a growable writer, and the section list. The
 * rewriters (fuel metering, memory cap) keep every section they do not touch
 * byte for byte.
 */

export class WasmFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WasmFormatError';
  }
}

export class Reader {
  pos: number;
  readonly bytes: Uint8Array;
  readonly end: number;
  constructor(bytes: Uint8Array, pos = 0, end = bytes.length) {
    this.bytes = bytes;
    this.pos = pos;
    this.end = end;
  }
  get done(): boolean {
    return this.pos >= this.end;
  }
  byte(): number {
    if (this.pos >= this.end) throw new WasmFormatError('unexpected end of module');
    return this.bytes[this.pos++] as number;
  }
  peek(): number {
    if (this.pos >= this.end) throw new WasmFormatError('unexpected end of module');
    return this.bytes[this.pos] as number;
  }
  /** Unsigned LEB128 up to 32 bits, as a number. */
  u32(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result;
      shift += 7;
      if (shift > 35) throw new WasmFormatError('u32 LEB128 too long');
    }
  }
  /** Unsigned LEB128 up to 64 bits (memory64 offsets, limits), as a bigint. */
  u64(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = this.byte();
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
      if (shift > 70n) throw new WasmFormatError('u64 LEB128 too long');
    }
  }
  /** Skip a signed or unsigned LEB128 of any width. */
  skipLeb(): void {
    while ((this.byte() & 0x80) !== 0) {
      /* continuation bytes */
    }
  }
  skip(n: number): void {
    if (this.pos + n > this.end) throw new WasmFormatError('unexpected end of module');
    this.pos += n;
  }
  name(): string {
    const len = this.u32();
    const start = this.pos;
    this.skip(len);
    return new TextDecoder().decode(this.bytes.subarray(start, start + len));
  }
}

export class Writer {
  private buf: Uint8Array;
  length = 0;
  constructor(capacity = 1024) {
    this.buf = new Uint8Array(capacity);
  }
  private ensure(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < this.length + n) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }
  byte(b: number): this {
    this.ensure(1);
    this.buf[this.length++] = b;
    return this;
  }
  bytes(b: Uint8Array): this {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
    return this;
  }
  u32(v: number): this {
    do {
      let b = v % 128;
      v = Math.floor(v / 128);
      if (v !== 0) b |= 0x80;
      this.byte(b);
    } while (v !== 0);
    return this;
  }
  /** Signed LEB128 of a 64-bit value. */
  s64(v: bigint): this {
    for (;;) {
      const b = Number(v & 0x7fn);
      v >>= 7n;
      const signBit = (b & 0x40) !== 0;
      if ((v === 0n && !signBit) || (v === -1n && signBit)) {
        this.byte(b);
        return this;
      }
      this.byte(b | 0x80);
    }
  }
  name(s: string): this {
    const b = new TextEncoder().encode(s);
    return this.u32(b.length).bytes(b);
  }
  /** A length-prefixed blob (a section body, a function body). */
  sized(body: Uint8Array): this {
    return this.u32(body.length).bytes(body);
  }
  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

export interface Section {
  id: number;
  /** The section's payload (without id and size). */
  body: Uint8Array;
}

const MAGIC = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

export function parseSections(bytes: Uint8Array): Section[] {
  for (let i = 0; i < 8; i++) {
    if (bytes[i] !== MAGIC[i]) throw new WasmFormatError('not a core WebAssembly module (bad magic or version)');
  }
  const r = new Reader(bytes, 8);
  const sections: Section[] = [];
  while (!r.done) {
    const id = r.byte();
    const size = r.u32();
    const start = r.pos;
    r.skip(size);
    sections.push({ id, body: bytes.subarray(start, start + size) });
  }
  return sections;
}

export function encodeSections(sections: readonly Section[]): Uint8Array {
  const w = new Writer(sections.reduce((n, s) => n + s.body.length + 6, 8));
  w.bytes(Uint8Array.from(MAGIC));
  for (const s of sections) w.byte(s.id).sized(s.body);
  return w.finish();
}

export const SectionId = {
  custom: 0,
  type: 1,
  import: 2,
  function: 3,
  table: 4,
  memory: 5,
  global: 6,
  export: 7,
  start: 8,
  element: 9,
  code: 10,
  data: 11,
  dataCount: 12,
  tag: 13,
} as const;

/** Canonical order of the non-custom sections, for inserting one that was absent. */
const ORDER: readonly number[] = [1, 2, 3, 4, 5, 13, 6, 7, 8, 9, 12, 10, 11];

/** Replace the section `id`, or insert it at its canonical place. */
export function putSection(sections: Section[], id: number, body: Uint8Array): Section[] {
  const at = sections.findIndex((s) => s.id === id);
  if (at >= 0) return sections.map((s, i) => (i === at ? { id, body } : s));
  const rank = ORDER.indexOf(id);
  const before = sections.findIndex((s) => s.id !== 0 && ORDER.indexOf(s.id) > rank);
  const out = sections.slice();
  out.splice(before < 0 ? out.length : before, 0, { id, body });
  return out;
}

/** Skip a value type (including `(ref null? ht)` forms from the reference-types and GC proposals). */
export function skipValType(r: Reader): void {
  const t = r.byte();
  if (t === 0x63 || t === 0x64) r.skipLeb();
}

/** Skip `limits` (memory or table): returns nothing, validates the flag. */
export function skipLimits(r: Reader): void {
  const flags = r.byte();
  if (flags > 0x07) throw new WasmFormatError(`unknown limits flags 0x${flags.toString(16)}`);
  r.skipLeb();
  if ((flags & 1) !== 0) r.skipLeb();
}
