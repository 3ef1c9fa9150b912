/**
 * Builds the bundled first-party WebAssembly tools in tools/ into WASI 0.2
 * components: `cargo build --target wasm32-wasi` (Debian's rustc 1.63, std
 * only, offline) → core modules → `componentNew` with jco's preview1 command
 * adapter → dist/tools/<name>.wasm, plus each tool's manifest and an index
 * (dist/tools/index.json: name, file, manifest, sha256). Tools whose sources,
 * toolchain and flags are unchanged since the last build are skipped.
 *
 *   bun run scripts/build-tools.ts [--out dist/tools] [--force]
 *
 * Needs the Debian packages rustc, cargo and libstd-rust-dev-wasm32.
 */
import { componentNew, preview1AdapterCommandPath } from '@bytecodealliance/jco';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dir, '..');
const TOOLS = join(ROOT, 'tools');
const TARGET = join(TOOLS, 'target');
const RUSTC = '/usr/bin/rustc';
const CARGO = '/usr/bin/cargo';
// Every tool must export cabi_realloc, or the adapter's state page gets
// overwritten by the 2022 dlmalloc (shared/research/wasm-spike.md §1).
const RUSTFLAGS = '-C link-arg=--export=cabi_realloc';
const APT_HINT = 'apt-get install -y rustc cargo libstd-rust-dev-wasm32';

export interface IndexEntry {
  name: string;
  /** Component file, relative to the index. */
  file: string;
  /** Manifest file, relative to the index; absent when the tool has none (no grants). */
  manifest?: string;
  /** sha256 of the component bytes. */
  sha256: string;
  size: number;
  /** Hash of sources + toolchain + flags; equal means no rebuild. */
  sourceHash: string;
}

export interface ToolIndex {
  version: 1;
  tools: IndexEntry[];
}

function sha256(data: Uint8Array | string): string {
  return new Bun.CryptoHasher('sha256').update(data).digest('hex');
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (name === 'target' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p));
    else out.push(p);
  }
  return out;
}

/** Tool folders: a Cargo package with a binary (src/main.rs). */
function toolNames(): string[] {
  return readdirSync(TOOLS)
    .filter((n) => existsSync(join(TOOLS, n, 'Cargo.toml')) && existsSync(join(TOOLS, n, 'src', 'main.rs')))
    .sort();
}

function run(cmd: string[], env: Record<string, string> = {}): string {
  const r = Bun.spawnSync(cmd, { cwd: TOOLS, env: { ...process.env, ...env }, stderr: 'pipe', stdout: 'pipe' });
  if (r.exitCode !== 0) {
    throw new Error(`${cmd.join(' ')} failed (exit ${r.exitCode}):\n${r.stderr.toString()}${r.stdout.toString()}`);
  }
  return r.stdout.toString();
}

function checkToolchain(): string {
  if (!existsSync(RUSTC) || !existsSync(CARGO)) throw new Error(`Debian's Rust toolchain is missing: ${APT_HINT}`);
  const sysroot = run([RUSTC, '--print', 'sysroot']).trim();
  if (!existsSync(join(sysroot, 'lib', 'rustlib', 'wasm32-wasi'))) {
    throw new Error(`the wasm32-wasi standard library is missing: ${APT_HINT}`);
  }
  return run([RUSTC, '--version']).trim();
}

function sourceHash(name: string, toolchain: string, adapter: Uint8Array): string {
  const h = new Bun.CryptoHasher('sha256');
  h.update(`${toolchain}\n${RUSTFLAGS}\n${sha256(adapter)}\n`);
  const shared = [join(TOOLS, 'Cargo.toml'), ...filesUnder(join(TOOLS, 'moat-tool'))];
  for (const f of [...shared, ...filesUnder(join(TOOLS, name))]) {
    h.update(`${relative(TOOLS, f)}\n`);
    h.update(readFileSync(f));
    h.update('\n');
  }
  return h.digest('hex');
}

function isIndex(v: unknown): v is ToolIndex {
  return typeof v === 'object' && v !== null && 'version' in v && v.version === 1 && 'tools' in v && Array.isArray(v.tools);
}

/** The previous build's index; anything unreadable just means "rebuild everything". */
function readIndex(out: string): ToolIndex | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(out, 'index.json'), 'utf8'));
    return isIndex(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function upToDate(out: string, prev: IndexEntry | undefined, hash: string): boolean {
  if (!prev || prev.sourceHash !== hash) return false;
  const file = join(out, prev.file);
  return existsSync(file) && sha256(readFileSync(file)) === prev.sha256;
}

export async function buildTools(out: string, force: boolean): Promise<{ index: ToolIndex; built: string[] }> {
  const toolchain = checkToolchain();
  const adapter = readFileSync(preview1AdapterCommandPath());
  mkdirSync(out, { recursive: true });
  const prev = new Map((readIndex(out)?.tools ?? []).map((t) => [t.name, t]));
  const names = toolNames();
  const hashes = new Map(names.map((n) => [n, sourceHash(n, toolchain, adapter)]));
  const stale = names.filter((n) => force || !upToDate(out, prev.get(n), hashes.get(n) ?? ''));
  if (stale.length > 0) {
    // One cargo run for all stale tools: the shared crate compiles once.
    run([CARGO, 'build', '--release', '--target', 'wasm32-wasi', '--offline', '-q', ...stale.flatMap((n) => ['-p', n])], {
      RUSTC,
      RUSTFLAGS,
      CARGO_TARGET_DIR: TARGET,
    });
  }
  const tools: IndexEntry[] = [];
  for (const name of names) {
    const manifestSrc = join(TOOLS, name, `${name}.toml`);
    const hasManifest = existsSync(manifestSrc);
    if (hasManifest) await Bun.write(join(out, `${name}.toml`), Bun.file(manifestSrc));
    const old = prev.get(name);
    if (!stale.includes(name) && old) {
      tools.push(old);
      continue;
    }
    const core = readFileSync(join(TARGET, 'wasm32-wasi', 'release', `${name}.wasm`));
    const exports = WebAssembly.Module.exports(new WebAssembly.Module(core)).map((e) => e.name);
    if (!exports.includes('cabi_realloc')) throw new Error(`${name}: the core module does not export cabi_realloc`);
    const component = await componentNew(core, [['wasi_snapshot_preview1', adapter]]);
    await Bun.write(join(out, `${name}.wasm`), component);
    const entry: IndexEntry = { name, file: `${name}.wasm`, sha256: sha256(component), size: component.length, sourceHash: hashes.get(name) ?? '' };
    if (hasManifest) entry.manifest = `${name}.toml`;
    tools.push(entry);
  }
  const index: ToolIndex = { version: 1, tools };
  await Bun.write(join(out, 'index.json'), `${JSON.stringify(index, null, 2)}\n`);
  return { index, built: stale };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const outIdx = args.indexOf('--out');
  const out = outIdx >= 0 && args[outIdx + 1] ? join(process.cwd(), args[outIdx + 1] ?? '') : join(ROOT, 'dist', 'tools');
  const started = performance.now();
  try {
    const { index, built } = await buildTools(out, args.includes('--force'));
    const secs = ((performance.now() - started) / 1000).toFixed(1);
    for (const t of index.tools) console.log(`  ${t.name.padEnd(18)} ${(t.size / 1024).toFixed(0).padStart(5)} KiB${built.includes(t.name) ? '' : '  (unchanged)'}`);
    console.log(`built ${built.length} of ${index.tools.length} tools into ${relative(process.cwd(), out) || '.'} in ${secs} s`);
  } catch (e) {
    console.error(`build-tools: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
