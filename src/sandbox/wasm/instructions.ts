/** Decodes WebAssembly instructions for the fuel meter. */
import { Reader, skipValType, WasmFormatError } from './binary.ts';

/**
 * Instruction decoding for the fuel meter: reads one instruction's opcode and
 * skips its immediates. Covers MVP, sign extension, saturating and bulk memory
 * (0xFC), SIMD and relaxed SIMD (0xFD), reference types, tail calls,
 * typed function references, atomics (0xFE) and both exception-handling
 * encodings. GC (0xFB) is refused: an unknown encoding must never be guessed,
 * or the rewriter would corrupt the module.
 */

export const Op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  else: 0x05,
  try: 0x06,
  end: 0x0b,
  memoryGrow: 0x40,
  tryTable: 0x1f,
} as const;

function skipBlockType(r: Reader): void {
  const b = r.peek();
  // A first byte in 0x40..0x7f is a negative one-byte s33: 0x40 (empty) or a value type,
  // of which (ref ht) and (ref null ht) carry a heap type. Anything else is a type index.
  if (b >= 0x40 && b <= 0x7f) {
    if (b === 0x63 || b === 0x64) skipValType(r);
    else r.byte();
    return;
  }
  r.skipLeb();
}

function skipMemarg(r: Reader): void {
  const align = r.u32();
  // Bit 6 of the alignment says a memory index follows (multi-memory).
  if ((align & 0x40) !== 0) r.u32();
  r.skipLeb();
}

/** Reads one instruction at `r.pos`; returns its opcode (prefixed ones as 0xFC00 | sub, etc.). */
export function readInstruction(r: Reader): number {
  const op = r.byte();
  if (op <= 0x01) return op;
  if (op >= 0x02 && op <= 0x04) {
    skipBlockType(r);
    return op;
  }
  if (op >= 0x45 && op <= 0xc4) return op;
  switch (op) {
    case 0x05:
    case 0x0a:
    case 0x0b:
    case 0x0f:
    case 0x19:
    case 0x1a:
    case 0x1b:
    case 0xd1:
    case 0xd3:
    case 0xd4:
      return op;
    case 0x06:
      skipBlockType(r);
      return op;
    case 0x07: // catch tag
    case 0x08: // throw tag
    case 0x09: // rethrow depth
    case 0x18: // delegate depth
    case 0x0c:
    case 0x0d:
    case 0x10:
    case 0x12:
    case 0x14:
    case 0x15:
    case 0x20:
    case 0x21:
    case 0x22:
    case 0x23:
    case 0x24:
    case 0x25:
    case 0x26:
    case 0xd2:
    case 0xd5:
    case 0xd6:
      r.u32();
      return op;
    case 0x11:
    case 0x13:
      r.u32();
      r.u32();
      return op;
    case 0x0e: {
      const n = r.u32();
      for (let i = 0; i <= n; i++) r.u32();
      return op;
    }
    case 0x1c: {
      const n = r.u32();
      for (let i = 0; i < n; i++) skipValType(r);
      return op;
    }
    case 0x1f: {
      skipBlockType(r);
      const n = r.u32();
      for (let i = 0; i < n; i++) {
        const kind = r.byte();
        if (kind === 0x00 || kind === 0x01) r.u32();
        r.u32();
      }
      return op;
    }
    case 0x3f:
    case 0x40:
      r.u32();
      return op;
    case 0x41:
    case 0x42:
      r.skipLeb();
      return op;
    case 0x43:
      r.skip(4);
      return op;
    case 0x44:
      r.skip(8);
      return op;
    case 0xd0:
      r.skipLeb();
      return op;
    case 0xfc:
      return 0xfc00 | readFc(r);
    case 0xfd:
      return 0xfd000 | readFd(r);
    case 0xfe:
      return 0xfe00 | readFe(r);
    default:
      if (op >= 0x28 && op <= 0x3e) {
        skipMemarg(r);
        return op;
      }
      throw new WasmFormatError(`unsupported opcode 0x${op.toString(16)} at byte ${r.pos - 1}`);
  }
}

function readFc(r: Reader): number {
  const sub = r.u32();
  if (sub <= 7) return sub;
  switch (sub) {
    case 8:
    case 10:
    case 12:
    case 14:
      r.u32();
      r.u32();
      return sub;
    case 9:
    case 11:
    case 13:
    case 15:
    case 16:
    case 17:
      r.u32();
      return sub;
    default:
      throw new WasmFormatError(`unsupported opcode 0xfc ${sub}`);
  }
}

function readFd(r: Reader): number {
  const sub = r.u32();
  if (sub <= 11 || sub === 92 || sub === 93) {
    skipMemarg(r);
  } else if (sub === 12 || sub === 13) {
    r.skip(16);
  } else if (sub >= 21 && sub <= 34) {
    r.skip(1);
  } else if (sub >= 84 && sub <= 91) {
    skipMemarg(r);
    r.skip(1);
  } else if (sub > 0x113) {
    throw new WasmFormatError(`unsupported opcode 0xfd ${sub}`);
  }
  return sub;
}

function readFe(r: Reader): number {
  const sub = r.u32();
  if (sub === 3) {
    r.byte();
    return sub;
  }
  if (sub <= 2 || (sub >= 0x10 && sub <= 0x4e)) {
    skipMemarg(r);
    return sub;
  }
  throw new WasmFormatError(`unsupported opcode 0xfe ${sub}`);
}
