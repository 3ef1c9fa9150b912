/**
 * `bun run image`: the moat container image, built without a registry.
 *
 *  1. mmdebstrap makes a minimal Debian rootfs (the `essential` set plus git,
 *     bubblewrap, socat, ca-certificates and what they need) with dist/moat in
 *     /usr/local/bin, a `moat` user (uid 1000) and /workspace, as one tarball;
 *  2. buildah turns that tarball into a one-layer image (non-root user,
 *     /workspace, `moat` as the entrypoint, OCI labels) and saves it as an OCI
 *     archive: dist/moat-image.oci.tar;
 *  3. dist/moat-image.json records the digests and how long it took.
 *
 * Reproducible: with the same SOURCE_DATE_EPOCH (default: the commit's time),
 * the same dist/moat and the same state of the Debian archive, two builds give
 * the same rootfs tarball and the same layer digest. What moves is the archive
 * itself: a Debian point release or a security update changes package versions
 * and so the digest (pin MOAT_IMAGE_MIRROR to a snapshot.debian.org URL to
 * freeze it). The image's configuration, and so its manifest digest, also
 * carries the commit (a label) and buildah's version (buildah's own
 * io.buildah.version label); the layer does not.
 *
 * Downloaded packages are kept in dist/image-cache/apt (MOAT_IMAGE_APT_CACHE),
 * which is what a CI cache should hold: a build from a warm cache downloads
 * nothing but the package lists.
 *
 *   bun run image                 # needs root (or a user with subuids) and the Debian packages mmdebstrap, buildah
 *   MOAT_IMAGE_SUITE=trixie bun run image
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '..');
const DIST = join(ROOT, 'dist');
const BIN = join(DIST, 'moat');
const WORK = join(DIST, 'image-build');
const ROOTFS = join(WORK, 'rootfs.tar');
const OUT = join(DIST, 'moat-image.oci.tar');
const REPORT = join(DIST, 'moat-image.json');
const CACHE = resolve(process.env.MOAT_IMAGE_APT_CACHE ?? join(DIST, 'image-cache', 'apt'));
const MIRROR = process.env.MOAT_IMAGE_MIRROR ?? 'http://deb.debian.org/debian';
const SECURITY_MIRROR = process.env.MOAT_IMAGE_SECURITY_MIRROR ?? 'http://deb.debian.org/debian-security';
const SUITE = process.env.MOAT_IMAGE_SUITE ?? 'bookworm';
const PACKAGES = ['git', 'bubblewrap', 'socat', 'ca-certificates'];
const UID = 1000;

function fail(message: string): never {
  console.error(`image: ${message}`);
  process.exit(1);
}

function run(argv: string[], opts: { capture?: boolean; env?: Record<string, string> } = {}): string {
  const r = Bun.spawnSync(argv, {
    cwd: ROOT,
    env: { ...process.env, ...opts.env },
    stdout: opts.capture === true ? 'pipe' : 'inherit',
    stderr: 'inherit',
  });
  if (r.exitCode !== 0) fail(`${argv.slice(0, 3).join(' ')} … failed (exit ${r.exitCode})`);
  return opts.capture === true ? (r.stdout?.toString() ?? '').trim() : '';
}

async function sha256(file: string): Promise<string> {
  const hasher = new Bun.CryptoHasher('sha256');
  for await (const chunk of Bun.file(file).stream()) hasher.update(chunk);
  return hasher.digest('hex');
}

for (const tool of ['mmdebstrap', 'buildah']) {
  if (Bun.which(tool) === null) fail(`${tool} is not installed (apt-get install mmdebstrap buildah uidmap)`);
}
if (!existsSync(BIN)) fail('dist/moat is missing: run bun run build first');

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const revision = run(['git', 'rev-parse', 'HEAD'], { capture: true });
const epoch = process.env.SOURCE_DATE_EPOCH ?? run(['git', 'log', '-1', '--format=%ct'], { capture: true });
if (!/^\d+$/.test(epoch)) fail(`SOURCE_DATE_EPOCH must be seconds since 1970, not "${epoch}"`);
const source = process.env.MOAT_IMAGE_SOURCE ?? 'https://github.com/moat-agent/moat';

const started = performance.now();
rmSync(WORK, { recursive: true, force: true });
mkdirSync(WORK, { recursive: true });
mkdirSync(CACHE, { recursive: true });

// The customisation runs on the host with the rootfs at "$1"; ownership is numeric, the user is written
// straight into the files base-passwd made (the `passwd` tools are not in the essential set).
const customize = [
  `copy-in ${BIN} /usr/local/bin`,
  `chmod 0755 "$1/usr/local/bin/moat"`,
  `echo 'moat:x:${UID}:${UID}:moat:/home/moat:/bin/sh' >> "$1/etc/passwd"`,
  `echo 'moat:x:${UID}:' >> "$1/etc/group"`,
  `mkdir -p "$1/home/moat" "$1/workspace" && chown ${UID}:${UID} "$1/home/moat" "$1/workspace"`,
  // The working folder is usually a volume another user (an init container, actions/checkout) cloned into.
  `printf '[safe]\\n\\tdirectory = /workspace\\n' > "$1/etc/gitconfig"`,
  // Caches that record when and on which machine they were made.
  `rm -f "$1/var/cache/ldconfig/aux-cache" "$1/var/log/dpkg.log" "$1/var/log/apt/history.log" "$1/var/log/apt/term.log" "$1/var/log/alternatives.log"`,
];

const mmdebstrap = [
  'mmdebstrap',
  '--variant=essential',
  `--include=${PACKAGES.join(',')}`,
  // Documentation and translations are not read inside a container; the licences stay.
  '--dpkgopt=path-exclude=/usr/share/man/*',
  '--dpkgopt=path-exclude=/usr/share/locale/*',
  '--dpkgopt=path-include=/usr/share/locale/locale.alias',
  '--dpkgopt=path-exclude=/usr/share/doc/*',
  '--dpkgopt=path-include=/usr/share/doc/*/copyright',
  '--dpkgopt=path-exclude=/usr/share/info/*',
  // Keep downloaded .deb files between builds (mmdebstrap's documented cache recipe).
  '--skip=download/empty',
  '--skip=essential/unlink',
  `--setup-hook=mkdir -p "$1/var/cache/apt/archives/"`,
  `--setup-hook=sync-in ${CACHE} /var/cache/apt/archives/`,
  `--customize-hook=sync-out /var/cache/apt/archives ${CACHE}`,
  ...customize.map((c) => `--customize-hook=${c}`),
  '--format=tar',
  SUITE,
  ROOTFS,
  `deb ${MIRROR} ${SUITE} main`,
  `deb ${MIRROR} ${SUITE}-updates main`,
  `deb ${SECURITY_MIRROR} ${SUITE}-security main`,
];
console.error(`image: Debian ${SUITE} rootfs with ${PACKAGES.join(', ')} and dist/moat (SOURCE_DATE_EPOCH=${epoch})`);
// Debian's own tools first: mmdebstrap's filters are Python scripts, and a python3 shim earlier on PATH
// (pyenv and the like) starts once per package.
run(mmdebstrap, { env: { SOURCE_DATE_EPOCH: epoch, PATH: `/usr/sbin:/usr/bin:/sbin:/bin:${process.env.PATH ?? ''}` } });
const rootfsSeconds = (performance.now() - started) / 1000;
const rootfsSha256 = await sha256(ROOTFS);

// buildah: one layer from the tarball, then the image's configuration. `--timestamp` fixes the
// image's creation time and the layer's file times, so the same rootfs gives the same layer.
const ctr = run(['buildah', 'from', '--quiet', 'scratch'], { capture: true });
try {
  run(['buildah', 'add', '--quiet', ctr, ROOTFS, '/']);
  const labels = {
    'org.opencontainers.image.title': 'moat',
    'org.opencontainers.image.description': 'moat, a terminal AI coding agent, for unattended runs (moat -p)',
    'org.opencontainers.image.version': pkg.version,
    'org.opencontainers.image.revision': revision,
    'org.opencontainers.image.source': source,
    'org.opencontainers.image.licenses': 'MIT',
    'org.opencontainers.image.base.name': `debian:${SUITE}`,
  };
  run([
    'buildah',
    'config',
    '--user',
    `${UID}:${UID}`,
    '--workingdir',
    '/workspace',
    '--entrypoint',
    '["/usr/local/bin/moat"]',
    '--cmd',
    '[]',
    '--env',
    'HOME=/home/moat',
    '--env',
    'PATH=/usr/local/bin:/usr/bin:/bin',
    '--env',
    'NO_COLOR=1',
    ...Object.entries(labels).flatMap(([k, v]) => ['--label', `${k}=${v}`]),
    ctr,
  ]);
  rmSync(OUT, { force: true });
  run(['buildah', 'commit', '--quiet', '--timestamp', epoch, '--format', 'oci', '--rm', ctr, `oci-archive:${OUT}:moat:${pkg.version}`]);
} catch (e) {
  Bun.spawnSync(['buildah', 'rm', ctr], { stdout: 'ignore', stderr: 'ignore' });
  throw e;
}

/** Reads the archive's config: the layer's diff id is the digest of the uncompressed rootfs layer. */
function member(name: string): string {
  return run(['tar', '-xOf', OUT, name], { capture: true });
}
const index = JSON.parse(member('index.json')) as { manifests: { digest: string }[] };
const manifestDigest = index.manifests[0]?.digest ?? fail('the OCI archive has no manifest');
const manifest = JSON.parse(member(`blobs/sha256/${manifestDigest.slice('sha256:'.length)}`)) as { config: { digest: string } };
const config = JSON.parse(member(`blobs/sha256/${manifest.config.digest.slice('sha256:'.length)}`)) as { rootfs: { diff_ids: string[] } };
const seconds = (performance.now() - started) / 1000;
const report = {
  version: pkg.version,
  revision,
  sourceDateEpoch: Number(epoch),
  suite: SUITE,
  rootfsTarSha256: rootfsSha256,
  layerDiffId: config.rootfs.diff_ids[0],
  manifestDigest,
  rootfsSeconds: Math.round(rootfsSeconds * 10) / 10,
  seconds: Math.round(seconds * 10) / 10,
};
writeFileSync(REPORT, `${JSON.stringify(report, null, 2)}\n`);
console.error(
  `image: wrote ${OUT} in ${report.seconds} s (rootfs ${report.rootfsSeconds} s)\n  rootfs tar sha256:${rootfsSha256}\n  layer ${report.layerDiffId}\n  manifest ${manifestDigest}`,
);
