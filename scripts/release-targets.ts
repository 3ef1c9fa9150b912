/**
 * The platforms a release ships for: Bun's compile target for each, the
 * archive it goes into, and its npm package's `os`/`cpu`. Read by scripts/release.ts and its tests.
 */

export interface ReleaseTarget {
  /** `linux-x64`, `darwin-arm64`, `windows-x64-baseline`… — the archive's and the build folder's name. */
  name: string;
  bun: Bun.Build.CompileTarget;
  /** process.platform / process.arch on the machine that runs it (npm's `os` and `cpu`). */
  os: 'linux' | 'darwin' | 'win32';
  cpu: 'x64' | 'arm64';
  /** The executable's file name. */
  exe: 'moat' | 'moat.exe';
}

/**
 * No separate `-baseline` (no AVX2) targets: Bun 1.4.5's x64 runtimes are
 * baseline builds already — `bun-linux-x64` and `bun-linux-x64-baseline`
 * (and the darwin and windows pairs) download byte-identical files, and the
 * executables built from them were identical. Every x64 build here runs on
 * CPUs without AVX2. Revisit when Bun ships them apart again.
 */
export const TARGETS: readonly ReleaseTarget[] = [
  { name: 'linux-x64', bun: 'bun-linux-x64', os: 'linux', cpu: 'x64', exe: 'moat' },
  { name: 'linux-arm64', bun: 'bun-linux-arm64', os: 'linux', cpu: 'arm64', exe: 'moat' },
  { name: 'darwin-arm64', bun: 'bun-darwin-arm64', os: 'darwin', cpu: 'arm64', exe: 'moat' },
  { name: 'darwin-x64', bun: 'bun-darwin-x64', os: 'darwin', cpu: 'x64', exe: 'moat' },
  { name: 'windows-x64', bun: 'bun-windows-x64', os: 'win32', cpu: 'x64', exe: 'moat.exe' },
];

/** The launcher package users install (`moat` itself is taken on npm by an unrelated testing library). */
export const LAUNCHER = 'moat-agent';

/** `moat-agent-linux-x64`, `moat-agent-win32-x64`… */
export function platformPackage(t: Pick<ReleaseTarget, 'os' | 'cpu'>): string {
  return `${LAUNCHER}-${t.os}-${t.cpu}`;
}

/** The archive a target's executable is shipped in: zip for Windows (Explorer opens it), tar.gz elsewhere (keeps the mode). */
export function archiveName(t: ReleaseTarget, version: string): string {
  return `moat-${version}-${t.name}.${t.os === 'win32' ? 'zip' : 'tar.gz'}`;
}
