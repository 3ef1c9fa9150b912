/**
 * Runs the compiled binary (dist/moat) the way a user would, in an isolated
 * HOME / XDG environment, against a fake model server. Always async: the fake
 * server lives in the test process and must keep serving while moat runs.
 */
import { join, resolve } from 'node:path';
import { tempDir } from './temp.ts';

export const MOAT_BIN = resolve(import.meta.dir, '../../dist/moat');
/** The test build (test/support/moat-test-entry.ts): reads MOAT_TEST_* switches; dist/moat has none. */
export const MOAT_TEST_BIN = resolve(import.meta.dir, '../../dist/moat-test');

export interface MoatResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Sandbox {
  /** A fresh working folder (real path). */
  cwd: string;
  home: string;
  env: Record<string, string>;
}

export function makeSandbox(baseUrl?: string): Sandbox {
  const root = tempDir('moat-e2e-');
  const home = join(root, 'home');
  const cwd = join(root, 'work');
  Bun.spawnSync(['mkdir', '-p', home, cwd]);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    ANTHROPIC_API_KEY: 'fake-key',
    // Read by dist/moat-test only: the tests that go through retries run that build.
    MOAT_TEST_RETRY_BASE_MS: '20',
    NO_COLOR: '1',
  };
  if (baseUrl) env.ANTHROPIC_BASE_URL = baseUrl;
  return { cwd, home, env };
}

export function spawnMoat(args: string[], opts: { cwd: string; env: Record<string, string>; stdin?: string; bin?: string }) {
  return Bun.spawn([opts.bin ?? MOAT_BIN, ...args], {
    cwd: opts.cwd,
    env: opts.env,
    stdin: opts.stdin === undefined ? 'ignore' : new TextEncoder().encode(opts.stdin),
    stdout: 'pipe',
    stderr: 'pipe',
  });
}

export async function runMoat(args: string[], opts: { cwd: string; env: Record<string, string>; stdin?: string; bin?: string }): Promise<MoatResult> {
  const proc = spawnMoat(args, opts);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

/** Polls until `fn` returns true, or throws after `timeoutMs`. Never a fixed sleep. */
export async function waitUntil(fn: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!fn()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10);
  }
}
