import { beforeAll, describe, expect, test } from 'bun:test';
import { optimizeGlue } from '../../src/sandbox/glue-optimize.ts';
import { parseSections } from '../../src/sandbox/wasm/binary.ts';
import { readComponentImports } from '../../src/sandbox/wasm/component-imports.ts';
import { capMemory, readMemories } from '../../src/sandbox/wasm/memory-cap.ts';
import { FUEL_EXPORT, MEMORY_DENIED_EXPORT, MEMORY_LIMIT_EXPORT, meterModule } from '../../src/sandbox/wasm/meter.ts';
import { importMemory, MEMORY_IMPORT_MODULE, MEMORY_IMPORT_NAME } from '../../src/sandbox/wasm/import-memory.ts';
import { readModuleInfo } from '../../src/sandbox/wasm/module-info.ts';
import { buildFixtures, wat } from './fixtures/build-fixtures.ts';

/** The binary rewriters on their own, against a hand-assembled module and the real tool's. */

const SMALL_WAT = `(module
  (memory 1)
  (global (mut i32) (i32.const 7))
  (func (export "spin") (param i32)
    (loop (br_if 0 (local.tee 0 (i32.sub (local.get 0) (i32.const 1))))))
  (func (export "grow") (param i32) (result i32)
    (memory.grow (local.get 0))))`;

let SMALL: Uint8Array;
beforeAll(async () => {
  SMALL = await wat(SMALL_WAT);
});

interface SmallExports {
  spin(n: number): void;
  grow(pages: number): number;
  [FUEL_EXPORT]: WebAssembly.Global;
  [MEMORY_DENIED_EXPORT]: WebAssembly.Global;
  [MEMORY_LIMIT_EXPORT]: WebAssembly.Global;
  memory?: WebAssembly.Memory;
}

function instantiate(bytes: Uint8Array, fuel: bigint): SmallExports {
  const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes as Uint8Array<ArrayBuffer>));
  const e = instance.exports as unknown as SmallExports;
  e[FUEL_EXPORT].value = fuel;
  return e;
}

describe('fuel metering', () => {
  test('the hand-made module is valid before and after', () => {
    expect(WebAssembly.validate(SMALL as Uint8Array<ArrayBuffer>)).toBe(true);
    expect(WebAssembly.validate(meterModule(SMALL) as Uint8Array<ArrayBuffer>)).toBe(true);
  });

  test('a loop is charged per iteration, deterministically', () => {
    const metered = meterModule(SMALL);
    const a = instantiate(metered, 1_000_000n);
    a.spin(1000);
    const used = 1_000_000n - (a[FUEL_EXPORT].value as bigint);
    // Each iteration charges the loop body's 6 instructions (its `end` included); the entry charges
    // the function's own 2 (`loop` and the final `end`).
    expect(used).toBe(1000n * 6n + 2n);
  });

  test('running out traps with unreachable, and the fuel left is the same every time', () => {
    const metered = meterModule(SMALL);
    const left = [0, 1].map(() => {
      const e = instantiate(metered, 5000n);
      expect(() => e.spin(1_000_000)).toThrow();
      return e[FUEL_EXPORT].value as bigint;
    });
    expect(left[0]).toBeLessThan(0n);
    expect(left[1]).toBe(left[0] as bigint);
  });

  test('a refused memory.grow sets the memory-denied flag, a granted one does not', () => {
    const e = instantiate(capMemory(meterModule(SMALL), 2), 1_000_000n);
    expect(e.grow(1)).toBe(1);
    expect(e[MEMORY_DENIED_EXPORT].value).toBe(0);
    expect(e.grow(5)).toBe(-1);
    expect(e[MEMORY_DENIED_EXPORT].value).toBe(1);
  });

  test('a grow past __memory_limit is refused below the engine maximum, and sets the flag', () => {
    const e = instantiate(meterModule(SMALL), 1_000_000n);
    e[MEMORY_LIMIT_EXPORT].value = 3;
    expect(e.grow(2)).toBe(1);
    expect(e[MEMORY_DENIED_EXPORT].value).toBe(0);
    expect(e.grow(1)).toBe(-1);
    expect(e[MEMORY_DENIED_EXPORT].value).toBe(1);
    e[MEMORY_LIMIT_EXPORT].value = 4;
    expect(e.grow(1)).toBe(3);
    // A delta so large that size + delta wraps is still refused (by the engine).
    expect(e.grow(-1)).toBe(-1);
  });

  test('importMemory turns the defined memory into an import the host provides', () => {
    const out = importMemory(meterModule(SMALL));
    if (out === undefined) throw new Error('not rewritten');
    expect(out.limits).toEqual({ initialPages: 1, maxPages: undefined });
    const mod = new WebAssembly.Module(out.bytes as Uint8Array<ArrayBuffer>);
    expect(WebAssembly.Module.imports(mod)).toEqual([{ module: MEMORY_IMPORT_MODULE, name: MEMORY_IMPORT_NAME, kind: 'memory' }]);
    const memory = new WebAssembly.Memory({ initial: 2, maximum: 3 });
    const e = new WebAssembly.Instance(mod, { [MEMORY_IMPORT_MODULE]: { [MEMORY_IMPORT_NAME]: memory } }).exports as unknown as SmallExports;
    expect(e.grow(1)).toBe(2);
    expect(e.grow(1)).toBe(-1);
    expect(importMemory(out.bytes)).toBeUndefined();
  });

  test('metering twice is refused', () => {
    expect(() => meterModule(meterModule(SMALL))).toThrow('already metered');
  });
});

describe('the real tool', () => {
  let core: Uint8Array;
  beforeAll(async () => {
    // The component embeds the core module; the cache writes it out, but the sections are enough here.
    const { tool } = await buildFixtures();
    expect(readComponentImports(tool)).toContain('wasi:cli/stdout@0.2.12');
    const { transpileComponent } = await import('../../src/sandbox/transpile.ts');
    const out = await transpileComponent(tool, 'component');
    core = out.files.get('component.core.wasm') as Uint8Array;
  });

  test('its metered module validates and keeps every function and export', () => {
    const metered = meterModule(core);
    expect(WebAssembly.validate(metered as Uint8Array<ArrayBuffer>)).toBe(true);
    const before = readModuleInfo(parseSections(core));
    const after = readModuleInfo(parseSections(metered));
    expect(after.functionTypes).toEqual(before.functionTypes);
    expect(after.exports.map((e) => e.name)).toEqual([...before.exports.map((e) => e.name), FUEL_EXPORT, MEMORY_DENIED_EXPORT, MEMORY_LIMIT_EXPORT]);
  });

  test('the memory cap rewrites the maximum only', () => {
    const capped = capMemory(core, 256);
    expect(readMemories(core)).toEqual([{ initialPages: 2, maxPages: undefined }]);
    expect(readMemories(capped)).toEqual([{ initialPages: 2, maxPages: 256 }]);
    expect(() => capMemory(core, 1)).toThrow('over the cap');
  });
});

describe('glue optimizer', () => {
  test('removes statement-level _debugLog calls, even with parentheses in strings, and keeps the rest', () => {
    const src = [
      'const _debugLog = (...args) => {',
      '  if (!globalThis?.process?.env?.JCO_DEBUG) { return; }',
      '  console.debug(...args);',
      '};',
      'function f(x) {',
      "  _debugLog('[f()] (enter) `x`', { x, y: `t${x})` });",
      '  if (x) _debugLog("kept: not a statement on its own line");',
      '  return x + 1;',
      '}',
    ].join('\n');
    const out = optimizeGlue(src);
    expect(out).not.toContain('[f()]');
    expect(out).toContain('kept: not a statement');
    expect(out).toContain('return x + 1;');
    expect(out).toContain('return;');
    expect(new Function(`${out}; return f(1);`)()).toBe(2);
  });
});
