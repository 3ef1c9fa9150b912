/** Reads a component binary's top-level imports. */
import { Reader, WasmFormatError } from './binary.ts';

/**
 * The top-level import names of a component binary, read from its import
 * sections (id 10), e.g. "wasi:cli/stdout@0.2.12". jco's transpiler lists only
 * the imports its core modules use; this is the full list the component
 * declares, which is what registration must judge and show.
 */

const COMPONENT_PREAMBLE = [0x00, 0x61, 0x73, 0x6d, 0x0d, 0x00, 0x01, 0x00];
const IMPORT_SECTION = 10;

export function isComponent(bytes: Uint8Array): boolean {
  return COMPONENT_PREAMBLE.every((b, i) => bytes[i] === b);
}

function skipExternDesc(r: Reader): void {
  const kind = r.byte();
  switch (kind) {
    case 0x00: // core module: 0x11 typeidx
      r.byte();
      r.u32();
      return;
    case 0x01: // func
    case 0x04: // component
    case 0x05: // instance
      r.u32();
      return;
    case 0x02: // value: eq valueidx, or a value type
      r.byte();
      r.skipLeb();
      return;
    case 0x03: // type: eq typeidx, or (sub resource)
      if (r.byte() === 0x00) r.u32();
      return;
    default:
      throw new WasmFormatError(`unknown component extern kind 0x${kind.toString(16)}`);
  }
}

export function readComponentImports(bytes: Uint8Array): string[] {
  if (!isComponent(bytes)) throw new WasmFormatError('not a WebAssembly component (a core module? wrap it with `jco new --wasi-command`)');
  const r = new Reader(bytes, 8);
  const names: string[] = [];
  while (!r.done) {
    const id = r.byte();
    const size = r.u32();
    const end = r.pos + size;
    if (id === IMPORT_SECTION) {
      const s = new Reader(bytes, r.pos, end);
      const n = s.u32();
      for (let i = 0; i < n; i++) {
        const form = s.byte();
        names.push(s.name());
        // 0x01: a legacy name with a version suffix string after it.
        if (form === 0x01) s.name();
        skipExternDesc(s);
      }
    }
    r.pos = end;
  }
  return names;
}
