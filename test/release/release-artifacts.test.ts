// `bun run release`: every target's archive with its checksum, each executable in its platform's format, and each
// embedding the same bundled WebAssembly tools and the shell grammar — and, on Linux, only its own CPU's seccomp loader.
import { beforeAll, describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { archiveName, TARGETS, type ReleaseTarget } from '../../scripts/release-targets.ts';
import { RELEASE_BUILD_DIR, RELEASE_DIR, releaseBuild } from '../support/release-build.ts';

const ROOT = resolve(import.meta.dir, '../..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const binaries = new Map<string, Buffer>();

beforeAll(async () => {
  await releaseBuild();
  for (const t of TARGETS) binaries.set(t.name, readFileSync(join(RELEASE_BUILD_DIR, t.name, t.exe)));
}, 1_800_000);

function binary(t: ReleaseTarget): Buffer {
  const b = binaries.get(t.name);
  if (b === undefined) throw new Error(`no executable for ${t.name}`);
  return b;
}

const FORMAT: Record<string, RegExp> = {
  'linux-x64': /^ELF 64-bit LSB executable, x86-64, .*interpreter \/lib64\/ld-linux-x86-64\.so\.2/,
  'linux-arm64': /^ELF 64-bit LSB executable, ARM aarch64, .*interpreter \/lib\/ld-linux-aarch64\.so\.1/,
  'darwin-arm64': /^Mach-O 64-bit arm64 executable/,
  'darwin-x64': /^Mach-O 64-bit x86_64 executable/,
  'windows-x64': /^PE32\+ executable \(console\) x86-64, for MS Windows/,
};

describe('the release', () => {
  test('one archive per target and SHA256SUMS with each archive’s hash, nothing else', () => {
    const names = TARGETS.map((t) => archiveName(t, VERSION));
    expect(readdirSync(RELEASE_DIR).sort()).toEqual([...names, 'SHA256SUMS'].sort());
    const lines = readFileSync(join(RELEASE_DIR, 'SHA256SUMS'), 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => l.split('  ')[1])).toEqual(names);
    // sha256sum itself agrees, as a user checking a download would run it.
    const check = Bun.spawnSync(['sha256sum', '-c', 'SHA256SUMS'], { cwd: RELEASE_DIR });
    expect(check.stdout.toString().trim().split('\n')).toEqual(names.map((n) => `${n}: OK`));
  }, 300_000);

  test('each archive holds the executable (executable on Unix), the licence and the README', () => {
    for (const t of TARGETS) {
      const file = join(RELEASE_DIR, archiveName(t, VERSION));
      const listing = t.os === 'win32' ? Bun.spawnSync(['unzip', '-Z1', file]).stdout.toString() : Bun.spawnSync(['tar', '-tvzf', file]).stdout.toString();
      const entries = listing.trim().split('\n');
      expect(entries.length).toBe(3);
      if (t.os === 'win32') expect(entries.sort()).toEqual(['LICENSE', 'README.md', 'moat.exe']);
      else expect(entries.find((e) => e.endsWith(' moat'))).toStartWith('-rwxr-xr-x');
    }
  }, 300_000);

  test('each executable is in its platform’s format (file(1))', () => {
    for (const t of TARGETS) {
      const out = Bun.spawnSync(['file', '-b', join(RELEASE_BUILD_DIR, t.name, t.exe)]).stdout.toString();
      expect(out).toMatch(FORMAT[t.name] ?? /^$/);
    }
  });

  test('each executable embeds every bundled WebAssembly tool (its metered module, byte for byte) and the shell grammar', () => {
    // One archive holds every tool's cache entry (scripts/embed-tools.ts): the six metered modules are in it.
    const archive = readFileSync(join(ROOT, 'dist', 'embed', 'bundled-tools.zst'));
    const unpacked = Buffer.from(Bun.zstdDecompressSync(archive));
    const wasmMagic = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);
    let modules = 0;
    for (let at = unpacked.indexOf(wasmMagic); at >= 0; at = unpacked.indexOf(wasmMagic, at + 1)) modules++;
    expect(modules).toBeGreaterThanOrEqual(6);
    const grammar = Bun.zstdCompressSync(readFileSync(join(ROOT, 'node_modules', 'tree-sitter-bash', 'tree-sitter-bash.wasm')), { level: 19 });
    for (const t of TARGETS) {
      const b = binary(t);
      expect(b.length).toBeGreaterThan(100_000_000);
      expect({ target: t.name, tools: b.indexOf(archive) >= 0 }).toEqual({ target: t.name, tools: true });
      expect({ target: t.name, grammar: b.indexOf(grammar) >= 0 }).toEqual({ target: t.name, grammar: true });
    }
  }, 300_000);

  test('a Linux executable embeds its own CPU’s seccomp loader and not the other; macOS and Windows embed neither', () => {
    const vendor = join(ROOT, 'node_modules', '@anthropic-ai', 'sandbox-runtime', 'vendor', 'seccomp');
    const loader = { x64: Bun.zstdCompressSync(readFileSync(join(vendor, 'x64', 'apply-seccomp')), { level: 19 }), arm64: Bun.zstdCompressSync(readFileSync(join(vendor, 'arm64', 'apply-seccomp')), { level: 19 }) };
    const found = TARGETS.map((t) => ({ target: t.name, x64: binary(t).indexOf(loader.x64) >= 0, arm64: binary(t).indexOf(loader.arm64) >= 0 }));
    expect(found).toEqual([
      { target: 'linux-x64', x64: true, arm64: false },
      { target: 'linux-arm64', x64: false, arm64: true },
      { target: 'darwin-arm64', x64: false, arm64: false },
      { target: 'darwin-x64', x64: false, arm64: false },
      { target: 'windows-x64', x64: false, arm64: false },
    ]);
  }, 300_000);

  test('the linux-x64 executable runs here and is the version released', () => {
    const r = Bun.spawnSync([join(RELEASE_BUILD_DIR, 'linux-x64', 'moat'), '--version']);
    expect(r.stdout.toString()).toBe(`${VERSION} (moat)\n`);
  });
});
