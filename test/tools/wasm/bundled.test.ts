import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTools, type ToolIndex } from '../../../scripts/build-tools.ts';
import { loadComponent, runComponent, type LoadedComponent, type Preopen } from '../../../src/sandbox/index.ts';
import {
  discoverTool,
  grantsFor,
  mapOutput,
  parseManifest,
  toArgs,
  type Grants,
  type HelpRunner,
  type ToolManifest,
  type ToolSpecFromHelp,
} from '../../../src/tools/wasm/index.ts';
import { removeDir, tempDir } from '../tool-context.ts';
import { buildNative, runNative } from './native.ts';

/**
 * The compiled components in dist/tools, run through the real sandbox with
 * the grants their manifests declare: the same behaviour as the native
 * builds, and nothing outside the grants.
 */

const OUT = join(import.meta.dir, '..', '..', '..', 'dist', 'tools');
let index: ToolIndex;
let cacheDir = '';
let work = '';
const loaded = new Map<string, { component: LoadedComponent; manifest: ToolManifest }>();

beforeAll(async () => {
  // `bun run build` builds them; build here only when a test run comes first (skips unchanged tools).
  index = (await buildTools(OUT, false)).index;
  cacheDir = tempDir();
  work = tempDir();
  writeFileSync(join(work, 'data.json'), '{"items": [{"n": 1}, {"n": 5}, {"n": 9}]}');
  for (const t of index.tools) {
    const bytes = new Uint8Array(readFileSync(join(OUT, t.file)));
    const manifest = parseManifest(readFileSync(join(OUT, t.manifest ?? ''), 'utf8'), t.manifest ?? '');
    loaded.set(t.name, { component: await loadComponent(bytes, { cacheDir, name: t.name }), manifest });
  }
  await buildNative();
}, 300_000);
afterAll(() => {
  removeDir(cacheDir);
  removeDir(work);
});

function grants(name: string): Grants {
  const t = loaded.get(name);
  if (!t) throw new Error(`no tool ${name}`);
  return grantsFor(t.manifest, { cwd: work, env: { HOME: '/root', TZDIR: '/usr/share/zoneinfo' } });
}

async function run(name: string, args: string[], override: Partial<Grants> = {}): Promise<{ exitCode: number; out: string; err: string; stdout: Uint8Array; stderr: Uint8Array }> {
  const t = loaded.get(name);
  if (!t) throw new Error(`no tool ${name}`);
  const g = { ...grants(name), ...override };
  const r = await runComponent(t.component, { args: [name, ...args], env: g.env, preopens: g.preopens, limits: g.limits, isolation: 'in-process' });
  if (r.trap !== undefined || r.limitHit !== undefined) throw new Error(`${name} ${args.join(' ')}: ${r.message ?? r.trap ?? ''}`);
  const dec = new TextDecoder();
  return { exitCode: r.exitCode, out: dec.decode(r.stdout), err: dec.decode(r.stderr), stdout: r.stdout, stderr: r.stderr };
}

const runner = (name: string): HelpRunner => async (args) => run(name, args);

describe('bundled components', () => {
  test('the index lists every tool with its manifest and hash', () => {
    expect(index.tools.map((t) => [t.name, t.file, t.manifest])).toEqual([
      ['base64', 'base64.wasm', 'base64.toml'],
      ['calculate', 'calculate.wasm', 'calculate.toml'],
      ['current_time', 'current_time.wasm', 'current_time.toml'],
      ['hash', 'hash.wasm', 'hash.toml'],
      ['json_query', 'json_query.wasm', 'json_query.toml'],
      ['string_transform', 'string_transform.wasm', 'string_transform.toml'],
    ]);
    for (const t of index.tools) {
      expect(t.sha256).toBe(new Bun.CryptoHasher('sha256').update(readFileSync(join(OUT, t.file))).digest('hex'));
    }
  });

  test('every component exports cabi_realloc and imports only WASI interfaces', () => {
    for (const [name, t] of loaded) {
      expect(`${name}: ${t.component.exportsCabiRealloc}`).toBe(`${name}: true`);
      for (const i of t.component.imports) expect(i).toStartWith('wasi:');
      expect(t.component.imports.some((i) => i.startsWith('wasi:sockets') || i.startsWith('wasi:http'))).toBe(false);
    }
  });

  test('help parsed from the components equals help parsed from the native builds', async () => {
    for (const t of index.tools) {
      const wasm = await discoverTool(runner(t.name));
      const native = await discoverTool(async (args) => {
        const r = await runNative(t.name, args);
        return { exitCode: r.exitCode, stdout: r.stdoutBytes, stderr: r.stderrBytes };
      });
      expect(wasm).toEqual(native);
      expect(Array.isArray(wasm)).toBe(true);
    }
  });

  test('model calls through the sandbox', async () => {
    const specs = new Map<string, ToolSpecFromHelp>();
    for (const t of index.tools) {
      const found = await discoverTool(runner(t.name));
      if (!Array.isArray(found)) throw new Error(found.message);
      for (const s of found) specs.set(s.name, s);
    }
    const call = async (tool: string, input: Record<string, unknown>): Promise<ReturnType<typeof mapOutput>> => {
      const spec = specs.get(tool);
      if (!spec) throw new Error(`no spec ${tool}`);
      const program = index.tools.find((t) => tool === t.name || tool.startsWith(`${t.name}_`))?.name ?? tool;
      const r = await run(program, toArgs(spec, input));
      return mapOutput(r.exitCode, r.stdout, r.stderr);
    };
    expect((await call('calculate', { expression: '-2^2 + sqrt(16)' })).content).toBe('0');
    expect(await call('calculate', { expression: '1/0' })).toEqual({ content: 'error: division by zero', isError: true });
    expect((await call('json_query', { query: '$.items[?(@.n > 2)].n', file: 'data.json' })).content).toBe('[5,9]');
    expect((await call('string_transform', { operation: 'reverse', text: 'ae\u0301👩‍💻' })).content).toBe('👩‍💻e\u0301a');
    expect((await call('base64_encode', { text: 'grüße' })).content).toBe(Buffer.from('grüße').toString('base64'));
    expect((await call('base64_decode', { text: 'Zm9vYmFy' })).content).toBe('foobar');
    expect((await call('hash_sha256', { text: 'abc' })).content).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect((await call('hash_md5', { file: 'data.json' })).content).toBe(new Bun.CryptoHasher('md5').update(readFileSync(join(work, 'data.json'))).digest('hex'));
    expect((await call('hash_sha1', { text: 'abc' })).content).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
  });

  test('current_time uses the WASI clock and the zoneinfo grant', async () => {
    const before = Math.floor(Date.now() / 1000);
    const now = await run('current_time', ['-f', 'unix']);
    expect(Number(JSON.parse(now.out).content)).toBeGreaterThanOrEqual(before);
    const r = await run('current_time', ['-z', 'America/New_York', '--at', '2024-03-10T07:00:00Z']);
    expect(JSON.parse(r.out).content).toBe('2024-03-10T03:00:00-04:00');
  });

  test('current_time can read only its zoneinfo grant', async () => {
    // Its manifest grants exactly one read-only folder, and no environment.
    expect(grants('current_time').preopens).toEqual([{ hostPath: '/usr/share/zoneinfo', guestPath: '/zoneinfo', readOnly: true }]);
    expect(grants('current_time').env).toEqual({});
    // Point its zone lookup at the guest root: only the grant is there to be found.
    const viaRoot = async (zone: string): Promise<{ exitCode: number; err: string }> => run('current_time', ['-z', zone, '--at', '0'], { env: { TZDIR: '/' } });
    expect((await viaRoot('zoneinfo/Europe/Berlin')).exitCode).toBe(0);
    for (const outside of ['usr/share/zoneinfo/Europe/Berlin', 'etc/localtime', 'etc/passwd', 'tmp/x']) {
      const r = await viaRoot(outside);
      // "/" itself is not mounted, only /zoneinfo inside it.
      expect(`${outside}: ${r.exitCode} ${r.err.trim()}`).toBe(`${outside}: 1 error: the time zone database is not available (no /), so only UTC works`);
    }
    // Without the grant the database is simply absent.
    const none = await run('current_time', ['-z', 'Europe/Berlin'], { preopens: [] });
    expect(none.err.trim()).toBe('error: the time zone database is not available (no /zoneinfo), so only UTC works');
    // The grant is read-only and the working folder is not mounted at all.
    writeFileSync(join(work, 'Fake'), readFileSync('/usr/share/zoneinfo/Asia/Tokyo'));
    expect((await run('current_time', ['-z', 'Fake'])).exitCode).toBe(1);
  });

  test('file tools see the working folder and nothing else', async () => {
    const outside = await run('json_query', ['--file', '/etc/passwd', '$']);
    expect(outside.exitCode).toBe(1);
    expect(outside.err).toStartWith('error: ');
    const escape = await run('hash', ['sha256', '--file', '../../etc/passwd']);
    expect(escape.exitCode).toBe(1);
    expect(escape.err.trim()).toBe('error: permission denied: ../../etc/passwd (only files inside the working folder are accessible)');
    // A read-only grant refuses writes; base64 (read-write) may write.
    const ro: Preopen[] = [{ hostPath: work, guestPath: '/', readOnly: true }];
    expect((await run('base64', ['decode', '--output', 'x.bin', 'AP8='], { preopens: ro })).exitCode).toBe(1);
    expect((await run('base64', ['decode', '--output', 'x.bin', 'AP8='])).exitCode).toBe(0);
    expect(new Uint8Array(readFileSync(join(work, 'x.bin')))).toEqual(new Uint8Array([0, 255]));
  });

  test('a big file is hashed within the manifest limits (streamed)', async () => {
    const big = new Uint8Array(3 * 1024 * 1024).map((_, i) => i & 0xff);
    writeFileSync(join(work, 'big.bin'), big);
    const r = await run('hash', ['sha256', '--file', 'big.bin']);
    expect(JSON.parse(r.out).content).toBe(new Bun.CryptoHasher('sha256').update(big).digest('hex'));
  });
});
