import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { forgetLoaded } from '../../../src/sandbox/index.ts';
import { transpileStats } from '../../../src/sandbox/transpile.ts';
import { openStore, type Store } from '../../../src/store/index.ts';
import { storeIndex } from '../../../src/cli/wasm-tools.ts';
import { builtinTools, ToolRegistry, WasmCatalog, memoryIndex, type ComponentIndex, type ComponentRecord } from '../../../src/tools/index.ts';
import { buildFixtures } from '../../sandbox/fixtures/build-fixtures.ts';
import { waitUntil } from '../../support/run-moat.ts';
import { makeContext, removeDir, runTool, tempDir } from '../tool-context.ts';
import { buildGreet } from './fixtures/build-greet.ts';

/**
 * The catalog of drop-in WebAssembly tools: registration from a folder, the
 * watcher (add, replace, delete without a restart), refusals and warnings,
 * and the component index that makes a second start free.
 */

let root = '';
let greet: Uint8Array;
let greetChanged: Uint8Array;
let greetNoRealloc: Uint8Array;
let sockets: Uint8Array;
const open: WasmCatalog[] = [];

beforeAll(async () => {
  root = tempDir();
  greet = await buildGreet();
  greetChanged = await buildGreet({ edit: ['Repeat a text, optionally in capitals.', 'Repeat a text, maybe LOUDLY.'] });
  greetNoRealloc = await buildGreet({ name: 'oldgreet', noRealloc: true });
  sockets = (await buildFixtures()).socketsImporter;
}, 120_000);
afterAll(() => removeDir(root));
afterEach(() => {
  for (const c of open.splice(0)) c.close();
});

interface World {
  dir: string;
  work: string;
  catalog: WasmCatalog;
  warnings: string[];
}

function world(index: ComponentIndex = memoryIndex(), cacheDir = join(root, 'cache')): World {
  const base = join(root, `w${Math.random().toString(36).slice(2)}`);
  const dir = join(base, 'tools');
  const work = join(base, 'work');
  mkdirSync(work, { recursive: true });
  const warnings: string[] = [];
  const catalog = new WasmCatalog({
    cacheDir,
    index,
    env: {},
    folders: [{ dir, origin: 'project' }],
    reserved: () => new Set(builtinTools().map((t) => t.name)),
    warn: (l) => void warnings.push(l),
    debounceMs: 20,
  });
  open.push(catalog);
  return { dir, work, catalog, warnings };
}

function put(dir: string, name: string, bytes: Uint8Array | string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), bytes);
}

const names = (c: WasmCatalog) => c.tools().map((t) => t.name);

describe('drop-in tools', () => {
  test('a component in the folder becomes a tool; without a manifest it gets no files, no network, no env', async () => {
    const w = world();
    put(w.dir, 'greet.wasm', greet);
    await w.catalog.load();
    expect(names(w.catalog)).toEqual(['greet']);
    expect(w.warnings).toEqual([]);
    const tool = w.catalog.tools()[0]!;
    expect(tool.effect).toBe('read');
    expect(tool.intent({ text: 'hi' }, { cwd: w.work, roots: [w.work] })).toEqual({ ruleName: 'greet', paths: [], summary: 'greet hi' });
    const registry = new ToolRegistry(builtinTools());
    registry.addSource(w.catalog);
    expect(registry.specs(['greet'])[0]!.inputSchema).toEqual({
      type: 'object',
      properties: {
        text: { type: 'string', description: 'The text to repeat' },
        upper: { type: 'boolean', description: 'Print the text in capitals' },
        times: { type: 'integer', description: 'How many times to repeat it', default: 1 },
      },
      required: ['text'],
      additionalProperties: false,
    });
    // Project tools run in the child process (the SIGKILL backstop).
    expect(await runTool(tool, { text: 'hi', upper: true, times: 2 }, makeContext(w.work))).toEqual({ content: 'HI\nHI' });
    expect(await runTool(tool, { text: 'hi', loud: true }, makeContext(w.work))).toEqual({
      content: 'Invalid input for greet: input: unknown property "loud" (known: upper, times, text). Rewrite the input so it satisfies the schema.',
      isError: true,
    });
  }, 30_000);

  test('the watcher picks up an added, a replaced and a deleted component without a restart', async () => {
    const w = world();
    await w.catalog.load();
    w.catalog.watch();
    expect(names(w.catalog)).toEqual([]);
    put(w.dir, 'greet.wasm', greet);
    await waitUntil(() => names(w.catalog).includes('greet'), 5000, 'greet to appear');
    expect(w.catalog.tools()[0]!.description).toStartWith('Repeat a text, optionally in capitals.');
    put(w.dir, 'greet.wasm', greetChanged);
    await waitUntil(() => w.catalog.tools()[0]?.description.startsWith('Repeat a text, maybe LOUDLY.') === true, 5000, 'the new description');
    rmSync(join(w.dir, 'greet.wasm'));
    await waitUntil(() => names(w.catalog).length === 0, 5000, 'greet to go');
  }, 30_000);

  test('a folder that appears later is watched too', async () => {
    const w = world();
    await w.catalog.load();
    w.catalog.watch();
    put(w.dir, 'greet.wasm', greet);
    await waitUntil(() => names(w.catalog).includes('greet'), 5000, 'greet in the new folder');
  }, 30_000);

  test('refused imports, a missing cabi_realloc, a name clash and a bad manifest each cost one warning line', async () => {
    const w = world();
    put(w.dir, 'netcat.wasm', sockets);
    put(w.dir, 'oldgreet.wasm', greetNoRealloc);
    put(w.dir, 'bash.wasm', greet);
    put(w.dir, 'greet.wasm', greet);
    put(w.dir, 'greet.toml', '[filesystem]\ncwd = "everything"\n');
    await w.catalog.load();
    expect(names(w.catalog)).toEqual(['oldgreet']);
    expect(w.warnings.length).toBe(4);
    expect(w.warnings.find((l) => l.startsWith('netcat refused'))).toContain('imports wasi:sockets/tcp@0.2.3');
    expect(w.warnings.find((l) => l.startsWith('oldgreet:'))).toContain('does not export cabi_realloc');
    expect(w.warnings.find((l) => l.startsWith('oldgreet:'))).toContain('corrupts memory');
    expect(w.warnings).toContain('bash is not offered: its tool bash has the name of a built-in tool');
    expect(w.warnings.find((l) => l.includes('greet.toml'))).toContain('filesystem.cwd');
    const oldgreet = w.catalog.tools()[0]!;
    expect(await runTool(oldgreet, { text: 'still works' }, makeContext(w.work))).toEqual({ content: 'still works' });
  }, 60_000);
});

describe('the component index', () => {
  let store: Store;
  beforeAll(() => {
    store = openStore(join(root, 'index.db'));
  });
  afterAll(() => store.close());

  function counting(inner: ComponentIndex): ComponentIndex & { puts: ComponentRecord[] } {
    const puts: ComponentRecord[] = [];
    return { puts, get: (h) => inner.get(h), put: (r) => (puts.push(r), inner.put(r)) };
  }

  test('the second start is a hit (no transpile, no help run); one changed byte is a miss', async () => {
    const cacheDir = join(root, 'index-cache');
    const first = counting(storeIndex(store));
    const a = world(first, cacheDir);
    put(a.dir, 'greet.wasm', greet);
    const t0 = transpileStats.count;
    await a.catalog.load();
    expect(transpileStats.count).toBe(t0 + 1);
    expect(first.puts.map((r) => [r.name, r.specs.map((s) => s.name)])).toEqual([['greet', ['greet']]]);

    // A new process: nothing in memory, the same SQLite and disk cache.
    forgetLoaded();
    const second = counting(storeIndex(store));
    const b = world(second, cacheDir);
    put(b.dir, 'greet.wasm', greet);
    await b.catalog.load();
    expect(names(b.catalog)).toEqual(['greet']);
    expect(second.puts).toEqual([]);
    expect(transpileStats.count).toBe(t0 + 1);
    // Registration did not even load the component; the first call does, from the disk cache.
    expect(await runTool(b.catalog.tools()[0]!, { text: 'x' }, makeContext(b.work))).toEqual({ content: 'x' });
    expect(transpileStats.count).toBe(t0 + 1);

    const changed = new Uint8Array(greet);
    // One byte of the help text ("Repeat a text" → "Repeat a texT"): other bytes, another hash, a fresh entry.
    const at = Buffer.from(changed).indexOf('Repeat a text');
    expect(at).toBeGreaterThan(0);
    changed[at + 12] = 'T'.charCodeAt(0);
    const c = world(second, cacheDir);
    put(c.dir, 'greet.wasm', changed);
    await c.catalog.load();
    expect(transpileStats.count).toBe(t0 + 2);
    expect(second.puts.map((r) => r.hash)).toEqual([new Bun.CryptoHasher('sha256').update(changed).digest('hex')]);
    expect(c.catalog.tools()[0]!.description).toStartWith('Repeat a texT');
    expect(store.wasmTools.countComponents()).toBe(2);
  }, 60_000);
});
