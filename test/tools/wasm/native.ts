import { join } from 'node:path';

/**
 * The bundled tools built natively (debug, so overflow checks are on) from
 * the same sources as the wasm components: fast correctness tests of every
 * edge case without a wasm runtime. The first call builds; cargo makes later
 * calls no-ops.
 */

export const TOOLS_DIR = join(import.meta.dir, '..', '..', '..', 'tools');
const TARGET = join(TOOLS_DIR, 'target');

let built: Promise<void> | undefined;

export function buildNative(): Promise<void> {
  built ??= (async () => {
    const proc = Bun.spawn(['/usr/bin/cargo', 'build', '--offline', '-q'], {
      cwd: TOOLS_DIR,
      env: { ...process.env, RUSTC: '/usr/bin/rustc', CARGO_TARGET_DIR: TARGET, RUSTFLAGS: '' },
      stderr: 'pipe',
    });
    const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    if (code !== 0) throw new Error(`native build of tools/ failed (needs Debian rustc and cargo):\n${err}`);
  })();
  return built;
}

export interface NativeRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  stdoutBytes: Uint8Array;
  stderrBytes: Uint8Array;
}

export interface RunOptions {
  cwd?: string;
  env?: Record<string, string>;
}

export async function runNative(tool: string, args: string[], opts: RunOptions = {}): Promise<NativeRun> {
  await buildNative();
  const proc = Bun.spawn([join(TARGET, 'debug', tool), ...args], {
    cwd: opts.cwd ?? TOOLS_DIR,
    env: { PATH: '/usr/bin:/bin', ...opts.env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [exitCode, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).arrayBuffer(),
    new Response(proc.stderr).arrayBuffer(),
  ]);
  const stdoutBytes = new Uint8Array(out);
  const stderrBytes = new Uint8Array(err);
  const dec = new TextDecoder();
  return { exitCode, stdout: dec.decode(stdoutBytes), stderr: dec.decode(stderrBytes), stdoutBytes, stderrBytes };
}

export interface Envelope {
  error: boolean;
  content: string;
  metadata: Record<string, unknown>;
}

/** Runs a tool that must succeed and returns its parsed JSON envelope. */
export async function ok(tool: string, args: string[], opts: RunOptions = {}): Promise<Envelope> {
  const r = await runNative(tool, args, opts);
  if (r.exitCode !== 0) throw new Error(`${tool} ${args.join(' ')} exited ${r.exitCode}: ${r.stderr}`);
  if (r.stderr !== '') throw new Error(`${tool} wrote to stderr on success: ${r.stderr}`);
  return JSON.parse(r.stdout) as Envelope;
}

/** Runs a tool that must fail with exit 1 (2 for usage errors) and returns stderr. */
export async function fails(tool: string, args: string[], opts: RunOptions & { code?: number } = {}): Promise<string> {
  const r = await runNative(tool, args, opts);
  if (r.exitCode !== (opts.code ?? 1)) {
    throw new Error(`${tool} ${args.join(' ')}: expected exit ${opts.code ?? 1}, got ${r.exitCode}: ${r.stdout}${r.stderr}`);
  }
  if (r.stdout !== '') throw new Error(`${tool} printed to stdout on failure: ${r.stdout}`);
  return r.stderr.trim();
}
