// The npm packages from `bun run release`: packed with `npm pack`, installed globally from those tarballs only
// (offline, into a temporary prefix) as a user would with `npm install -g moat-agent`, then run.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LAUNCHER, platformPackage, TARGETS } from '../../scripts/release-targets.ts';
import { startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { lastToolResult, NPM_DIR, readThenAnswer, releaseBuild } from '../support/release-build.ts';
import { tempDir } from '../support/temp.ts';

const HERE = `${process.platform}-${process.arch}`;
let tarballs: Map<string, string>;
let server: FakeAnthropic;
/** npm with a cache of its own (empty: nothing can come from anywhere but the tarballs) and no registry to reach. */
let npmEnv: Record<string, string>;
/** The launcher and this platform's package, installed once for the tests that run them. */
let installed: { prefix: string; code: number; out: string };

function npm(args: string[], cwd: string): { code: number; out: string } {
  const r = Bun.spawnSync(['npm', ...args], { cwd, env: npmEnv, stdout: 'pipe', stderr: 'pipe' });
  return { code: r.exitCode ?? -1, out: `${r.stdout.toString()}${r.stderr.toString()}` };
}

beforeAll(async () => {
  await releaseBuild();
  server = await startFakeAnthropic();
  const home = tempDir('moat-npm-home-');
  npmEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    npm_config_cache: join(home, '.npm'),
    npm_config_offline: 'true',
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  const packed = tempDir('moat-npm-packed-');
  tarballs = new Map();
  for (const dir of readdirSync(NPM_DIR)) {
    const r = npm(['pack', '--json', '--pack-destination', packed, join(NPM_DIR, dir)], packed);
    if (r.code !== 0) throw new Error(`npm pack ${dir} failed:\n${r.out}`);
    const [info] = JSON.parse(r.out.slice(r.out.indexOf('['))) as { name: string; filename: string }[];
    if (info === undefined) throw new Error(`npm pack ${dir} said nothing`);
    tarballs.set(info.name, join(packed, info.filename));
  }
  installed = install([LAUNCHER, `${LAUNCHER}-${HERE}`]);
}, 1_800_000);
afterAll(() => server?.close());

function install(packages: string[]): { prefix: string; code: number; out: string } {
  const prefix = tempDir('moat-npm-prefix-');
  const r = npm(['install', '-g', '--prefix', prefix, ...packages.map((p) => tarballs.get(p) ?? p)], prefix);
  return { prefix, ...r };
}

describe('npm packages', () => {
  test('the launcher and one package per platform, each platform package holding one executable and saying where it runs', () => {
    expect([...tarballs.keys()].sort()).toEqual([LAUNCHER, ...TARGETS.map(platformPackage)].sort());
    const launcher = JSON.parse(readFileSync(join(NPM_DIR, LAUNCHER, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(launcher.bin).toEqual({ moat: 'bin/moat.cjs' });
    expect(launcher.scripts).toBeUndefined();
    expect(Object.keys(launcher.optionalDependencies as object).sort()).toEqual(TARGETS.map(platformPackage).sort());
    for (const t of TARGETS) {
      const manifest = JSON.parse(readFileSync(join(NPM_DIR, platformPackage(t), 'package.json'), 'utf8')) as Record<string, unknown>;
      expect(manifest).toMatchObject({ os: [t.os], cpu: [t.cpu], files: [`bin/${t.exe}`] });
      expect(manifest.scripts).toBeUndefined();
      const listing = Bun.spawnSync(['tar', '-tzf', tarballs.get(platformPackage(t)) ?? '']).stdout.toString().trim().split('\n').sort();
      expect(listing).toEqual(['package/LICENSE', 'package/README.md', `package/bin/${t.exe}`, 'package/package.json']);
    }
  }, 300_000);

  test('installed globally from the tarballs, `moat` runs: --version, and a -p read-then-answer against the model server', async () => {
    const { prefix, code, out } = installed;
    expect({ code, out: code === 0 ? '' : out }).toEqual({ code: 0, out: '' });
    const moat = join(prefix, 'bin', 'moat');
    const version = Bun.spawnSync([moat, '--version']);
    expect(version.stdout.toString()).toMatch(/^\d+\.\d+\.\d+ \(moat\)\n$/);
    server.requests.length = 0;
    const r = await readThenAnswer(server, [moat]);
    expect(r).toEqual({ code: 0, stdout: 'It has two lines.\n', stderr: '' });
    expect(lastToolResult(server, 1)).toContain('alpha');
    // The exit code comes through the launcher unchanged.
    const bad = Bun.spawnSync([moat, '--no-such-flag'], { stderr: 'pipe' });
    expect(bad.exitCode).toBe(2);
  }, 300_000);

  test('without its platform package the launcher says which one to install, in one line', () => {
    const { prefix, code } = install([LAUNCHER]);
    expect(code).toBe(0);
    const r = Bun.spawnSync([join(prefix, 'bin', 'moat'), '--version'], { stdout: 'pipe', stderr: 'pipe' });
    expect({ code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() }).toEqual({
      code: 1,
      stdout: '',
      stderr: `moat: the package for this platform (${LAUNCHER}-${HERE}) is not installed; reinstall without omitting optional dependencies: npm install -g ${LAUNCHER}\n`,
    });
  }, 300_000);

  test('on a platform nothing is built for, the launcher names it and the ones there are, in one line', () => {
    const { prefix } = installed;
    // Node itself told it runs elsewhere: a preload sets process.platform and process.arch before the launcher reads them.
    const preload = join(tempDir('moat-npm-preload-'), 'elsewhere.cjs');
    writeFileSync(preload, "Object.defineProperty(process, 'platform', { value: 'freebsd' }); Object.defineProperty(process, 'arch', { value: 'riscv64' });\n");
    const r = Bun.spawnSync(['node', '--require', preload, join(prefix, 'lib', 'node_modules', LAUNCHER, 'bin', 'moat.cjs'), '--version'], { stdout: 'pipe', stderr: 'pipe' });
    expect({ code: r.exitCode, stderr: r.stderr.toString() }).toEqual({
      code: 1,
      stderr: `moat: no build for this platform (freebsd-riscv64); moat is built for ${TARGETS.map((t) => `${t.os}-${t.cpu}`).join(', ')}\n`,
    });
  }, 300_000);
});
