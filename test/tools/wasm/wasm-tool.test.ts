import { afterAll, describe, expect, test } from 'bun:test';
import { DEFAULT_LIMITS } from '../../../src/sandbox/index.ts';
import { effectiveLimits, NO_MANIFEST, type ToolManifest, type ToolOrigin } from '../../../src/tools/index.ts';
import { parseHelp, wasmTool } from '../../../src/tools/wasm/index.ts';
import { isParseError, type ToolSpecFromHelp } from '../../../src/tools/wasm/spec.ts';
import { makeContext, removeDir, runTool, tempDir } from '../tool-context.ts';

/** The Tool adapter of a WebAssembly command: effect, intent, grants narrowed to the session, limits. */

const HELP = (level: string) => `frob 1.0.0
Frobnicate files.

Usage: frob [OPTIONS] <PATH>

Arguments:
  <PATH>  What to frobnicate

Options:
  -h, --help  Print help

PermissionLevel: ${level}
`;

function spec(level: string): ToolSpecFromHelp {
  const s = parseHelp(HELP(level), HELP(level));
  if (isParseError(s)) throw new Error(s.message);
  return s;
}

const dir = tempDir();
afterAll(() => removeDir(dir));

function tool(level: string, manifest: Partial<ToolManifest>, origin: ToolOrigin = 'user') {
  let loads = 0;
  const t = wasmTool({
    spec: spec(level),
    manifest: { ...NO_MANIFEST, ...manifest },
    origin,
    hash: 'h',
    argv0: 'frob',
    component: () => {
      loads++;
      return Promise.reject(new Error('not built in this test'));
    },
    limits: DEFAULT_LIMITS,
    env: {},
  });
  return { t, loads: () => loads };
}

describe('wasmTool', () => {
  test('effect follows the permission level; a network grant makes it network; execute stays execute', () => {
    expect(tool('none', {}).t.effect).toBe('read');
    expect(tool('read', { cwd: 'read' }).t.effect).toBe('read');
    expect(tool('write', { cwd: 'read-write' }).t.effect).toBe('write');
    expect(tool('read', { networkAllow: ['api.example.com'] }).t.effect).toBe('network');
    expect(tool('execute', { networkAllow: ['api.example.com'] }).t.effect).toBe('execute');
  });

  test('intent: the tool name as rule name, the granted folders with their access (a read tool never writes)', () => {
    const ctx = { cwd: dir, roots: [dir] };
    expect(tool('write', { cwd: 'read-write', paths: [{ host: '/etc/ssl', guest: '/ssl' }] }).t.intent({ path: 'a b' }, ctx)).toEqual({
      ruleName: 'frob',
      paths: [
        { path: dir, access: 'write' },
        { path: '/etc/ssl', access: 'read' },
      ],
      summary: 'frob "a b"',
    });
    expect(tool('read', { cwd: 'read-write' }).t.intent({ path: 'x' }, ctx).paths).toEqual([{ path: dir, access: 'read' }]);
    // A bundled tool's extra folders are moat's own (the zone database), not a request to approve.
    expect(tool('none', { paths: [{ host: '/usr/share/zoneinfo', guest: '/zoneinfo' }] }, 'bundled').t.intent({ path: 'x' }, ctx).paths).toEqual([]);
  });

  test('a working folder outside the session roots is never granted; the component is not even loaded', async () => {
    const other = tempDir();
    const { t, loads } = tool('read', { cwd: 'read' });
    const r = await runTool(t, { path: 'x' }, makeContext(other, { roots: [dir] }));
    expect(r).toEqual({ content: `frob needs the working folder, but ${other} is outside the folders this session may use.`, isError: true });
    expect(loads()).toBe(0);
    // Inside the roots the call proceeds (to the load, which fails here): the failure is an instruction, not a crash.
    expect(await runTool(t, { path: 'x' }, makeContext(dir))).toEqual({ content: 'frob could not be loaded: not built in this test', isError: true });
    expect(loads()).toBe(1);
    removeDir(other);
  });

  test('limits: defaults ⊕ manifest ⊕ config override, capped by the [sandbox] ceiling', () => {
    expect(effectiveLimits({ fuel: 5e9, memoryBytes: 64 << 20 }, { timeoutMs: 20_000, maxOutputBytes: 4096 }, { fuel: 2e9, timeoutMs: 10_000 })).toEqual({
      fuel: 2e9,
      memoryBytes: 64 << 20,
      timeoutMs: 10_000,
      maxOutputBytes: 4096,
    });
    expect(effectiveLimits({})).toEqual(DEFAULT_LIMITS);
  });
});
