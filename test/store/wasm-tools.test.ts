import { afterEach, expect, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { tempDir } from '../support/temp.ts';

/** The WebAssembly tool tables: the component index (by hash) and the install ledger. */

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function store(now = () => 1000) {
  const d = tempDir('moat-store-wasm-');
  dirs.push(d);
  return openStore(join(d, 'moat.db'), { now });
}

test('components: put, get by hash, replace; unknown hashes are undefined', () => {
  let t = 1000;
  const s = store(() => t);
  expect(s.wasmTools.getComponent('abc')).toBeUndefined();
  s.wasmTools.putComponent({ hash: 'abc', name: 'greet', specFormat: 1, specs: [{ name: 'greet' }], imports: ['wasi:cli/stdout@0.2.3'], exportsCabiRealloc: false });
  t = 2000;
  s.wasmTools.putComponent({ hash: 'abc', name: 'greet2', specFormat: 2, specs: [{ name: 'greet2' }], imports: [], exportsCabiRealloc: true });
  expect(s.wasmTools.getComponent('abc')).toEqual({
    hash: 'abc',
    name: 'greet2',
    specFormat: 2,
    specs: [{ name: 'greet2' }],
    imports: [],
    exportsCabiRealloc: true,
    createdAt: 1000,
    lastUsedAt: 2000,
  });
  expect(s.wasmTools.countComponents()).toBe(1);
  s.close();
});

test('installs: record, replace by name, list, remove', () => {
  const s = store();
  s.wasmTools.recordInstall({ name: 'b', version: '1.0', hash: 'h1', file: '/t/b.wasm', capabilities: ['cwd:read'] });
  s.wasmTools.recordInstall({ name: 'a', version: null, hash: 'h2', file: '/t/a.wasm', capabilities: [] });
  s.wasmTools.recordInstall({ name: 'b', version: '2.0', hash: 'h3', file: '/t/b.wasm', capabilities: ['net:x.com'] });
  expect(s.wasmTools.listInstalls()).toEqual([
    { name: 'a', version: null, hash: 'h2', file: '/t/a.wasm', capabilities: [], installedAt: 1000 },
    { name: 'b', version: '2.0', hash: 'h3', file: '/t/b.wasm', capabilities: ['net:x.com'], installedAt: 1000 },
  ]);
  expect(s.wasmTools.removeInstall('b')).toBe(true);
  expect(s.wasmTools.removeInstall('b')).toBe(false);
  expect(s.wasmTools.getInstall('b')).toBeUndefined();
  s.close();
});
