import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkImports, DEFAULT_LIMITS, forgetLoaded, loadComponent, runComponent, sha256 } from '../../src/sandbox/index.ts';
import { transpileStats } from '../../src/sandbox/transpile.ts';
import { buildFixtures, type Fixtures } from './fixtures/build-fixtures.ts';
import { decode, removeDir, tempDir } from './support.ts';

/** Loading: the sha256-keyed transpile cache, cabi_realloc detection, and refusing unknown imports. */

let dir: string;
let f: Fixtures;

beforeAll(async () => {
  dir = tempDir('cache');
  f = await buildFixtures();
});
afterAll(() => removeDir(dir));

describe('transpile cache', () => {
  test('first load transpiles and writes an entry named by the hash', async () => {
    const cacheDir = join(dir, 'c1');
    const before = transpileStats.count;
    const loaded = await loadComponent(f.tool, { cacheDir });
    expect(transpileStats.count).toBe(before + 1);
    expect(loaded.fromCache).toBe(false);
    expect(loaded.hash).toBe(sha256(f.tool));
    const entry = join(cacheDir, loaded.hash);
    expect(readdirSync(entry).sort()).toEqual(['component.core.wasm', 'component.core2.wasm', 'component.core3.wasm', 'component.core4.wasm', 'component.js', 'main.metered.wasm', 'meta.json']);
    const meta: unknown = JSON.parse(readFileSync(join(entry, 'meta.json'), 'utf8'));
    expect(meta).toMatchObject({ hash: loaded.hash, mainModule: 'component.core.wasm', exportsCabiRealloc: true });
  });

  test('a second load is a hit: no transpile, from memory and from disk', async () => {
    const cacheDir = join(dir, 'c2');
    await loadComponent(f.tool, { cacheDir });
    const before = transpileStats.count;
    const again = await loadComponent(f.tool, { cacheDir });
    expect(again.fromCache).toBe(true);
    forgetLoaded(); // as in a fresh process: only the disk cache remains
    const fromDisk = await loadComponent(f.tool, { cacheDir });
    expect(fromDisk.fromCache).toBe(true);
    expect(transpileStats.count).toBe(before);
    const r = decode(await runComponent(fromDisk, { args: ['tool', 'echo', 'cached'], env: {}, preopens: [], limits: DEFAULT_LIMITS, isolation: 'in-process' }));
    expect(r.out).toBe('cached\n');
  });

  test('changing one byte is a miss: a new entry, never the stale one', async () => {
    const cacheDir = join(dir, 'c3');
    const a = await loadComponent(f.tool, { cacheDir });
    const changed = f.tool.slice();
    // Flip a byte inside the trailing custom section (producers metadata), so the component stays valid.
    changed[changed.length - 2] = (changed[changed.length - 2] ?? 0) ^ 0x01;
    const before = transpileStats.count;
    const b = await loadComponent(changed, { cacheDir });
    expect(b.fromCache).toBe(false);
    expect(transpileStats.count).toBe(before + 1);
    expect(b.hash).not.toBe(a.hash);
    expect(existsSync(join(cacheDir, a.hash))).toBe(true);
    expect(existsSync(join(cacheDir, b.hash))).toBe(true);
  });

  test('a different cache dir does not share entries', async () => {
    await loadComponent(f.tool, { cacheDir: join(dir, 'c4') });
    const other = await loadComponent(f.tool, { cacheDir: join(dir, 'c5') });
    expect(other.fromCache).toBe(false);
  });

  test('bytes that are not a component are refused clearly', async () => {
    await expect(loadComponent(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]), { cacheDir: join(dir, 'c6'), name: 'core.wasm' })).rejects.toThrow('core.wasm: not a WebAssembly component');
  });
});

describe('registration checks', () => {
  test('cabi_realloc is detected', async () => {
    const cacheDir = join(dir, 'c7');
    expect((await loadComponent(f.tool, { cacheDir })).exportsCabiRealloc).toBe(true);
    expect((await loadComponent(f.toolNoRealloc, { cacheDir })).exportsCabiRealloc).toBe(false);
  });

  test('the import list names each interface with its version', async () => {
    const loaded = await loadComponent(f.tool, { cacheDir: join(dir, 'c8') });
    expect(loaded.imports).toContain('wasi:filesystem/types@0.2.12');
    expect(loaded.imports.every((i) => i.startsWith('wasi:'))).toBe(true);
  });

  test('a component importing wasi:sockets/tcp is refused, naming it, before any transpile', async () => {
    const before = transpileStats.count;
    await expect(loadComponent(f.socketsImporter, { cacheDir: join(dir, 'c9'), name: 'netcat' })).rejects.toThrow(
      'netcat refused: it imports wasi:sockets/tcp@0.2.3: raw sockets are not provided',
    );
    expect(transpileStats.count).toBe(before);
  });

  test('checkImports names every interface outside the allowed set', () => {
    expect(checkImports(['wasi:cli/stdout@0.2.3', 'wasi:http/outgoing-handler@0.2.0', 'wasi:io/streams'])).toEqual([]);
    expect(checkImports(['wasi:sockets/tcp@0.2.3', 'wasi:sockets/udp@0.2.3', 'acme:db/query@1.0.0', 'wasi:cli/stdout@0.3.0'])).toEqual([
      'imports wasi:sockets/tcp@0.2.3: raw sockets are not provided; network access is only through wasi:http/outgoing-handler under a network grant',
      'imports wasi:sockets/udp@0.2.3: raw sockets are not provided; network access is only through wasi:http/outgoing-handler under a network grant',
      "imports acme:db/query@1.0.0, which moat's WASI host does not provide",
      'imports wasi:cli/stdout@0.3.0: only WASI 0.2 interfaces are supported',
    ]);
  });
});
