/** Reads what the rewriters need from a core module's sections. */
import { Reader, SectionId, skipLimits, skipValType, WasmFormatError, type Section } from './binary.ts';

/** What the rewriters need to know about a core module, read from its sections. */
export interface ModuleInfo {
  /** Parameter count of each type index (function types only). */
  typeParams: number[];
  importedFunctions: number;
  importedGlobals: number;
  /** True when the module imports a memory (then it does not define one). */
  importsMemory: boolean;
  /** Type index of each defined function, in order. */
  functionTypes: number[];
  definedGlobals: number;
  /** Number of memories the module defines. */
  definedMemories: number;
  exports: { name: string; kind: number; index: number }[];
}

export function readModuleInfo(sections: readonly Section[]): ModuleInfo {
  const info: ModuleInfo = {
    typeParams: [],
    importedFunctions: 0,
    importedGlobals: 0,
    importsMemory: false,
    functionTypes: [],
    definedGlobals: 0,
    definedMemories: 0,
    exports: [],
  };
  for (const s of sections) {
    const r = new Reader(s.body);
    switch (s.id) {
      case SectionId.type:
        readTypes(r, info);
        break;
      case SectionId.import:
        readImports(r, info);
        break;
      case SectionId.function: {
        const n = r.u32();
        for (let i = 0; i < n; i++) info.functionTypes.push(r.u32());
        break;
      }
      case SectionId.memory:
        info.definedMemories = r.u32();
        break;
      case SectionId.global:
        info.definedGlobals = r.u32();
        break;
      case SectionId.export: {
        const n = r.u32();
        for (let i = 0; i < n; i++) {
          const name = r.name();
          const kind = r.byte();
          info.exports.push({ name, kind, index: r.u32() });
        }
        break;
      }
      default:
        break;
    }
  }
  return info;
}

function readTypes(r: Reader, info: ModuleInfo): void {
  const n = r.u32();
  for (let i = 0; i < n; i++) {
    const form = r.byte();
    // rec groups and subtypes belong to the GC proposal, which the metering decoder does not cover.
    if (form !== 0x60) throw new WasmFormatError(`unsupported type form 0x${form.toString(16)} (GC types)`);
    const params = r.u32();
    for (let p = 0; p < params; p++) skipValType(r);
    const results = r.u32();
    for (let p = 0; p < results; p++) skipValType(r);
    info.typeParams.push(params);
  }
}

function readImports(r: Reader, info: ModuleInfo): void {
  const n = r.u32();
  for (let i = 0; i < n; i++) {
    r.name();
    r.name();
    const kind = r.byte();
    switch (kind) {
      case 0x00:
        r.u32();
        info.importedFunctions++;
        break;
      case 0x01:
        skipValType(r);
        skipLimits(r);
        break;
      case 0x02:
        skipLimits(r);
        info.importsMemory = true;
        break;
      case 0x03:
        skipValType(r);
        r.byte();
        info.importedGlobals++;
        break;
      case 0x04:
        r.byte();
        r.u32();
        break;
      default:
        throw new WasmFormatError(`unknown import kind ${kind}`);
    }
  }
}

/** True when the module exports a function named `name`. */
export function exportsFunction(info: ModuleInfo, name: string): boolean {
  return info.exports.some((e) => e.kind === 0x00 && e.name === name);
}
