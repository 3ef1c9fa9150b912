/**
 * `bun run release`: cross-compiles moat for every platform it ships on
 * (scripts/release-targets.ts) with scripts/build.ts's own plugins and
 * embedded files, then writes
 *  - dist/release/: one archive per target and SHA256SUMS (`sha256sum -c` reads it);
 *  - dist/npm/: the launcher package (npm/launcher.cjs as its `moat` command)
 *    and one package per platform holding that platform's executable.
 * The executables themselves stay in dist/release-build/<target>/.
 *
 *   bun run scripts/release.ts [--only=linux-x64,linux-arm64]
 *
 * Bun downloads each target's runtime from the npm registry once and keeps it
 * in its install cache (~/.bun/install/cache, or $BUN_INSTALL_CACHE_DIR),
 * which is what a CI cache should hold between runs.
 */
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { archiveName, LAUNCHER, platformPackage, TARGETS, type ReleaseTarget } from './release-targets.ts';

const ROOT = join(import.meta.dir, '..');
const DIST = join(ROOT, 'dist');
const BUILD = join(DIST, 'release-build');
const RELEASE = join(DIST, 'release');
const NPM = join(DIST, 'npm');

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; description: string };
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const targets = only === undefined ? TARGETS : TARGETS.filter((t) => only.includes(t.name));
if (only !== undefined && targets.length !== only.length) {
  console.error(`release: unknown target in --only (known: ${TARGETS.map((t) => t.name).join(', ')})`);
  process.exit(2);
}

function run(argv: string[], cwd = ROOT): void {
  const r = Bun.spawnSync(argv, { cwd, stdout: 'inherit', stderr: 'inherit' });
  if (r.exitCode !== 0) {
    console.error(`release: ${argv.join(' ')} failed (exit ${r.exitCode})`);
    process.exit(1);
  }
}

const started = performance.now();
// The WebAssembly tools are built and precompiled once; each target's build finds them up to date.
run(['bun', 'run', 'scripts/build-tools.ts']);
run(['bun', 'run', 'scripts/embed-tools.ts']);

rmSync(RELEASE, { recursive: true, force: true });
rmSync(NPM, { recursive: true, force: true });
mkdirSync(RELEASE, { recursive: true });

/** One target at a time: a build already uses both cores here, and two at once were no faster. */
for (const t of targets) {
  const dir = join(BUILD, t.name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // Bun adds .exe for Windows targets itself.
  run(['bun', 'run', 'scripts/build.ts', join(dir, 'moat'), `--target=${t.bun}`]);
}

/** The archive holds the executable, the licence and the README at its top level. */
function archive(t: ReleaseTarget): string {
  const dir = join(BUILD, t.name);
  copyFileSync(join(ROOT, 'LICENSE'), join(dir, 'LICENSE'));
  copyFileSync(join(ROOT, 'README.md'), join(dir, 'README.md'));
  const name = archiveName(t, pkg.version);
  const files = [t.exe, 'LICENSE', 'README.md'];
  // Fixed times and owners, so the same executable gives the same archive.
  if (t.os === 'win32') run(['zip', '-q', '-X', '-9', join(RELEASE, name), ...files], dir);
  else run(['tar', '--sort=name', '--owner=0', '--group=0', '--numeric-owner', '--mtime=@0', '-czf', join(RELEASE, name), ...files], dir);
  return name;
}

const sums: string[] = [];
for (const t of targets) {
  const name = archive(t);
  const hash = new Bun.CryptoHasher('sha256').update(await Bun.file(join(RELEASE, name)).bytes()).digest('hex');
  sums.push(`${hash}  ${name}`);
}
writeFileSync(join(RELEASE, 'SHA256SUMS'), `${sums.join('\n')}\n`);

const common = {
  version: pkg.version,
  license: 'MIT',
};
const PLATFORM_NAMES: Record<ReleaseTarget['os'], string> = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' };

/** One package per platform: its executable and nothing else; npm installs it only where `os`/`cpu` (and on Linux, glibc) match. */
function platformPackageDir(t: ReleaseTarget): string {
  const name = platformPackage(t);
  const dir = join(NPM, name);
  mkdirSync(join(dir, 'bin'), { recursive: true });
  copyFileSync(join(BUILD, t.name, t.exe), join(dir, 'bin', t.exe));
  chmodSync(join(dir, 'bin', t.exe), 0o755);
  copyFileSync(join(ROOT, 'LICENSE'), join(dir, 'LICENSE'));
  const manifest = {
    name,
    ...common,
    description: `The moat executable for ${PLATFORM_NAMES[t.os]} ${t.cpu} (installed by ${LAUNCHER}; install that one)`,
    os: [t.os],
    cpu: [t.cpu],
    ...(t.os === 'linux' ? { libc: ['glibc'] } : {}),
    files: [`bin/${t.exe}`],
    preferUnplugged: true,
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(join(dir, 'README.md'), `# ${name}\n\nThe moat executable for ${PLATFORM_NAMES[t.os]} ${t.cpu}. Install \`${LAUNCHER}\` instead: \`npm install -g ${LAUNCHER}\`.\n`);
  return name;
}

const platformNames = targets.map(platformPackageDir);
const launcherDir = join(NPM, LAUNCHER);
mkdirSync(join(launcherDir, 'bin'), { recursive: true });
copyFileSync(join(ROOT, 'npm', 'launcher.cjs'), join(launcherDir, 'bin', 'moat.cjs'));
chmodSync(join(launcherDir, 'bin', 'moat.cjs'), 0o755);
copyFileSync(join(ROOT, 'LICENSE'), join(launcherDir, 'LICENSE'));
copyFileSync(join(ROOT, 'README.md'), join(launcherDir, 'README.md'));
const launcher = {
  name: LAUNCHER,
  ...common,
  description: pkg.description,
  bin: { moat: 'bin/moat.cjs' },
  files: ['bin/moat.cjs'],
  engines: { node: '>=18' },
  optionalDependencies: Object.fromEntries(platformNames.map((n) => [n, pkg.version])),
};
writeFileSync(join(launcherDir, 'package.json'), `${JSON.stringify(launcher, null, 2)}\n`);

console.log(`release: ${targets.length} targets, ${platformNames.length + 1} npm packages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
