/**
 * `moat tool …` with the compiled dist/moat: list, init (C and Rust, built
 * with the documented build.sh), validate, exec, install and rm, in a
 * throwaway HOME. Run `bun run build` first.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Database } from 'bun:sqlite';
import { buildFixtures } from '../sandbox/fixtures/build-fixtures.ts';
import { MOAT_BIN, makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';

const JCO = resolve(import.meta.dir, '../../node_modules/.bin/jco');
let sb: Sandbox;

beforeAll(() => {
  if (!existsSync(MOAT_BIN)) throw new Error('dist/moat is missing: run `bun run build` first');
  sb = makeSandbox();
});

const moat = (args: string[]) => runMoat(args, { cwd: sb.cwd, env: sb.env });

function buildSh(dir: string, extra: Record<string, string> = {}): { code: number; out: string } {
  const p = Bun.spawnSync(['sh', join(dir, 'build.sh')], { env: { ...sb.env, JCO, ...extra }, stdout: 'pipe', stderr: 'pipe' });
  return { code: p.exitCode ?? -1, out: p.stdout.toString() + p.stderr.toString() };
}

describe('moat tool', () => {
  test('list: every bundled tool with its source, level, capabilities and hash', async () => {
    const r = await moat(['tool', 'list']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+SOURCE\s+LEVEL\s+CAPABILITIES\s+HASH$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 4))).toEqual([
      ['base64_encode', 'bundled', 'read', 'cwd:read'],
      ['base64_decode', 'bundled', 'write', 'cwd:read-write'],
      ['calculate', 'bundled', 'none', '-'],
      ['current_time', 'bundled', 'none', 'fs:/usr/share/zoneinfo(ro)'],
      ['hash_sha256', 'bundled', 'read', 'cwd:read'],
      ['hash_sha1', 'bundled', 'read', 'cwd:read'],
      ['hash_md5', 'bundled', 'read', 'cwd:read'],
      ['json_query', 'bundled', 'read', 'cwd:read'],
      ['string_transform', 'bundled', 'none', '-'],
    ]);
  });

  test('exec of a bundled tool prints the result, fuel, peak memory and duration', async () => {
    const r = await moat(['tool', 'exec', 'calculate', '{"expression": "2^10"}']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('1024\n');
    expect(r.stderr).toMatch(/^exit 0 · fuel used [\d,]+ · peak memory [\d.]+ (KiB|MiB) · [\d.]+ ms\n$/);
    // Bad input is one usage line (exit 2), the message the model would get: no internal error, no stack.
    const bad = await moat(['tool', 'exec', 'calculate', '{"expr": 1}']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('moat: Invalid input for calculate: unknown property "expr" (known: precision, mode, expression); missing required property "expression"\n');
    const badEnum = await moat(['tool', 'exec', 'calculate', '{"expression": "1", "mode": "grads"}']);
    expect([badEnum.code, badEnum.stderr]).toEqual([2, 'moat: Invalid input for calculate: "mode" must be one of "radians", "degrees", not "grads"\n']);
  });

  test('init --lang c + build.sh make a component that validate accepts; exec, install, list, rm', async () => {
    expect((await moat(['tool', 'init', 'shout', '--lang', 'c'])).code).toBe(0);
    const built = buildSh(join(sb.cwd, 'shout'));
    expect(built).toEqual({ code: 0, out: expect.stringContaining('built shout.wasm') as unknown as string });
    const v = await moat(['tool', 'validate', 'shout/shout.wasm']);
    expect(v.code).toBe(0);
    expect(v.stderr).toBe('');
    expect(v.stdout).toContain('tool shout 0.1.0: Repeat a text, optionally in capitals.');
    expect(v.stdout).toContain('permission level: none (effect: read)');
    expect(v.stdout).toContain('"required": [\n        "text"\n      ]');
    expect(v.stdout).toMatch(/imports: +wasi:cli\/environment@0\.2\.\d+/);

    const x = await moat(['tool', 'exec', 'shout/shout.wasm', '{"text": "hi", "upper": true, "times": 2}']);
    expect(x.stdout).toBe('HI\nHI\n');
    expect(x.code).toBe(0);

    const i = await moat(['tool', 'install', 'shout/shout.wasm']);
    expect(i.code).toBe(0);
    const installed = join(sb.home, '.config', 'moat', 'tools', 'shout.wasm');
    expect(i.stdout).toBe(`installed shout (shout) → ${installed}\n`);
    expect(existsSync(installed)).toBe(true);
    const db = new Database(join(sb.home, '.local', 'share', 'moat', 'moat.db'), { readonly: true });
    expect(db.query('SELECT name, version, capabilities FROM wasm_installs').all()).toEqual([{ name: 'shout', version: '0.1.0', capabilities: '[]' }]);
    db.close();
    expect((await moat(['tool', 'list'])).stdout).toMatch(/\nshout +user +none +- +[0-9a-f]{12}\n/);
    expect((await moat(['tool', 'exec', 'shout', '{"text": "by name"}'])).stdout).toBe('by name\n');

    expect(await moat(['tool', 'rm', 'shout'])).toEqual({ code: 0, stdout: 'removed shout\n', stderr: '' });
    expect(existsSync(installed)).toBe(false);
    expect((await moat(['tool', 'list'])).stdout).not.toContain('shout');
    expect((await moat(['tool', 'rm', 'shout'])).code).not.toBe(0);
  }, 120_000);

  test('init --lang rust + build.sh (Debian rustc, wasm32-wasi) make a component that validate accepts', async () => {
    expect((await moat(['tool', 'init', 'echo_rs', '--lang', 'rust'])).code).toBe(0);
    const built = buildSh(join(sb.cwd, 'echo_rs'), { CARGO: '/usr/bin/cargo', RUSTC: '/usr/bin/rustc', CARGO_HOME: join(sb.home, '.cargo') });
    expect(built).toEqual({ code: 0, out: expect.stringContaining('built echo_rs.wasm') as unknown as string });
    const v = await moat(['tool', 'validate', 'echo_rs/echo_rs.wasm']);
    expect(v.code).toBe(0);
    expect(v.stderr).toBe('');
    expect(v.stdout).toContain('tool echo_rs 0.1.0: Repeat a text, optionally in capitals.');
    expect((await moat(['tool', 'exec', 'echo_rs/echo_rs.wasm', '{"text": "ok", "upper": true}'])).stdout).toBe('OK\n');
  }, 180_000);

  test('validate refuses a component importing an interface outside the allowed set, naming it', async () => {
    writeFileSync(join(sb.cwd, 'netcat.wasm'), (await buildFixtures()).socketsImporter);
    const r = await moat(['tool', 'validate', 'netcat.wasm']);
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('netcat refused: it imports wasi:sockets/tcp@0.2.3');
  });
});
