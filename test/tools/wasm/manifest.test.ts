import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from '../../../src/sandbox/index.ts';
import { MoatError } from '../../../src/util/index.ts';
import { grantsFor, NO_MANIFEST, parseManifest, readManifest } from '../../../src/tools/wasm/index.ts';
import { removeDir, tempDir } from '../tool-context.ts';
import { TOOLS_DIR } from './native.ts';

function errorOf(text: string): string {
  try {
    parseManifest(text, 'tools/x/x.toml');
  } catch (e) {
    if (e instanceof MoatError && e.code === 'config') return e.message;
    throw e;
  }
  throw new Error('expected a config error');
}

describe('parseManifest', () => {
  test('a full manifest', () => {
    const m = parseManifest(
      [
        'env = ["HOME", "LANG"]',
        '[filesystem]',
        'cwd = "read-write"',
        'paths = [{ host = "/usr/share/zoneinfo", guest = "/zoneinfo" }]',
        '[network]',
        'allow = ["api.example.com", "*.github.com"]',
        '[limits]',
        'fuel = 2_000_000_000',
        'memory_mb = 64',
        'timeout_ms = 10000',
      ].join('\n'),
      'x.toml',
    );
    expect(m).toEqual({
      cwd: 'read-write',
      paths: [{ host: '/usr/share/zoneinfo', guest: '/zoneinfo' }],
      networkAllow: ['api.example.com', '*.github.com'],
      env: ['HOME', 'LANG'],
      limits: { fuel: 2_000_000_000, memoryBytes: 64 * 1024 * 1024, timeoutMs: 10_000 },
    });
  });

  test('an empty manifest grants nothing', () => {
    expect(parseManifest('# nothing\n', 'x.toml')).toEqual(NO_MANIFEST);
  });

  test('unknown keys name the file, line and key', () => {
    expect(errorOf('[filesystem]\ncwd = "read"\nwrite = true\n')).toBe('invalid tool manifest:\ntools/x/x.toml:3: unknown key "filesystem.write"');
    expect(errorOf('[filesystem]\npaths = [\n  { host = "/a", guest = "/b" },\n  { host = "/c", gest = "/d" },\n]\n')).toBe(
      'invalid tool manifest:\ntools/x/x.toml:4: filesystem.paths[1].guest: Invalid input: expected string, received undefined\ntools/x/x.toml:4: unknown key "filesystem.paths[1].gest"',
    );
    expect(errorOf('\n\n[netwrk]\nallow = []\n')).toBe('invalid tool manifest:\ntools/x/x.toml:3: unknown key "netwrk"');
    expect(errorOf('fuel = 5\n')).toBe('invalid tool manifest:\ntools/x/x.toml:1: unknown key "fuel"');
  });

  test('bad values say what is wrong and where', () => {
    expect(errorOf('[filesystem]\ncwd = "write"\n')).toBe(
      'invalid tool manifest:\ntools/x/x.toml:2: filesystem.cwd: Invalid option: expected one of "none"|"read"|"read-write"',
    );
    expect(errorOf('[filesystem]\npaths = [{ host = "usr/share", guest = "/" }]\n')).toBe(
      [
        'invalid tool manifest:',
        'tools/x/x.toml:2: filesystem.paths[0].host: must be an absolute path',
        'tools/x/x.toml:2: filesystem.paths[0].guest: must not be "/" (that is the working folder)',
      ].join('\n'),
    );
    expect(errorOf('[limits]\nmemory_mb = 0\nfuel = 1.5\n')).toBe(
      [
        'invalid tool manifest:',
        'tools/x/x.toml:3: limits.fuel: Invalid input: expected int, received number',
        'tools/x/x.toml:2: limits.memory_mb: Too small: expected number to be >=1',
      ].join('\n'),
    );
    expect(errorOf('env = ["NOT-A-NAME"]\n')).toBe('invalid tool manifest:\ntools/x/x.toml:1: env[0]: must be an environment variable name');
  });

  test('TOML syntax errors carry line and column', () => {
    expect(errorOf('[filesystem\ncwd = "read"\n')).toMatch(/^tools\/x\/x\.toml:1:\d+: /);
  });
});

describe('readManifest and the bundled manifests', () => {
  let dir = '';
  beforeAll(() => {
    dir = tempDir();
  });
  afterAll(() => removeDir(dir));

  test('a missing manifest is undefined, so the caller grants nothing', async () => {
    expect(await readManifest(join(dir, 'none.toml'))).toBeUndefined();
    writeFileSync(join(dir, 'a.toml'), '[filesystem]\ncwd = "read"\n');
    expect((await readManifest(join(dir, 'a.toml')))?.cwd).toBe('read');
  });

  test('every bundled tool has a valid manifest; current_time gets only the zone database', async () => {
    const tools = readdirSync(TOOLS_DIR).filter((n) => n !== 'moat-tool' && n !== 'target' && !n.includes('.'));
    expect(tools.sort()).toEqual(['base64', 'calculate', 'current_time', 'hash', 'json_query', 'string_transform']);
    const cwd = { calculate: 'none', json_query: 'read', string_transform: 'none', current_time: 'none', base64: 'read-write', hash: 'read' };
    for (const t of tools) {
      const m = await readManifest(join(TOOLS_DIR, t, `${t}.toml`));
      expect(`${t}: ${m?.cwd}`).toBe(`${t}: ${cwd[t as keyof typeof cwd]}`);
      expect(m?.networkAllow).toEqual([]);
      expect(m?.env).toEqual([]);
    }
    const time = await readManifest(join(TOOLS_DIR, 'current_time', 'current_time.toml'));
    if (!time) throw new Error('no manifest');
    expect(grantsFor(time, { cwd: '/work', env: { HOME: '/root', TZDIR: '/x' } })).toEqual({
      preopens: [{ hostPath: '/usr/share/zoneinfo', guestPath: '/zoneinfo', readOnly: true }],
      env: {},
      limits: { ...DEFAULT_LIMITS, fuel: 500_000_000, memoryBytes: 16 * 1024 * 1024, timeoutMs: 5000 },
    });
  });
});

describe('grantsFor', () => {
  test('cwd access, declared env only, network', () => {
    const m = parseManifest('env = ["LANG", "MISSING"]\n[filesystem]\ncwd = "read"\n[network]\nallow = ["api.example.com"]\n', 'x.toml');
    expect(grantsFor(m, { cwd: '/w', env: { LANG: 'C', SECRET: 's' } })).toEqual({
      preopens: [{ hostPath: '/w', guestPath: '/', readOnly: true }],
      env: { LANG: 'C' },
      limits: DEFAULT_LIMITS,
      network: { allowHosts: ['api.example.com'] },
    });
    expect(grantsFor(NO_MANIFEST, { cwd: '/w', env: { LANG: 'C' } })).toEqual({ preopens: [], env: {}, limits: DEFAULT_LIMITS });
  });
});

describe('grantsFor: private addresses', () => {
  const manifest = parseManifest('[network]\nallow = ["http://127.0.0.1:8080"]\n', 'x.toml');
  const grant = (allowPrivateNetwork?: boolean) =>
    grantsFor(manifest, { cwd: '/work', env: { MOAT_TEST_HOOKS: '1', MOAT_TEST_ALLOW_PRIVATE_NETWORK: '1' }, ...(allowPrivateNetwork === undefined ? {} : { allowPrivateNetwork }) }).network;

  test('stay blocked whatever the environment says; only the composition root lifts it, and the allowlist is kept', () => {
    expect(grant()).toEqual({ allowHosts: ['http://127.0.0.1:8080'] });
    expect(grant(false)).toEqual({ allowHosts: ['http://127.0.0.1:8080'] });
    expect(grant(true)).toEqual({ allowHosts: ['http://127.0.0.1:8080'], allowPrivate: true });
  });

  test('no network section: no network at all', () => {
    const none = parseManifest('# nothing\n', 'x.toml');
    expect(grantsFor(none, { cwd: '/work', env: {}, allowPrivateNetwork: true }).network).toBeUndefined();
  });
});
