import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runComponent, DEFAULT_LIMITS } from '../../src/sandbox/index.ts';
import { warmStats } from '../../src/sandbox/warm.ts';
import { decode, removeDir, tempDir, toolRunner, type ToolRunner } from './support.ts';

/** What a run sees: argv, stdin, only the declared environment, captured stdio; a fresh host each call. */

let dir: string;
let work: string;
let t: ToolRunner;

beforeAll(async () => {
  dir = tempDir('run');
  work = join(dir, 'work');
  mkdirSync(work);
  writeFileSync(join(work, 'kb.bin'), new Uint8Array(1024).map((_, i) => i % 251));
  t = await toolRunner(join(dir, 'cache'), [{ hostPath: work, guestPath: '/', readOnly: true }]);
});
afterAll(() => removeDir(dir));

describe('environment', () => {
  test('the tool sees exactly the declared variables', async () => {
    const r = await t.run(['env'], { env: { LANG: 'C', TOOL_TOKEN: 'abc' } });
    expect(r.out.split('\n').filter(Boolean).sort()).toEqual(['LANG=C', 'TOOL_TOKEN=abc']);
  });

  test('a variable of the host process that was not declared is not visible', async () => {
    process.env.MOAT_SANDBOX_SECRET = 'host-secret';
    try {
      const r = await t.run(['getenv', 'MOAT_SANDBOX_SECRET'], { env: { OTHER: '1' } });
      expect({ code: r.exitCode, out: r.out }).toEqual({ code: 1, out: '(unset)\n' });
      const all = await t.run(['env']);
      expect(all.out).toBe('');
    } finally {
      delete process.env.MOAT_SANDBOX_SECRET;
    }
  });

  test('PATH and HOME are not inherited either', async () => {
    const r = await t.run(['env']);
    expect(r.out).not.toContain('PATH=');
    expect(r.out).not.toContain('HOME=');
  });
});

describe('arguments and stdio', () => {
  test('argv is passed through, including spaces and unicode', async () => {
    const r = await t.run(['echo', 'a b', 'ünï', '--flag=1']);
    expect(r.out).toBe('a b ünï --flag=1\n');
  });

  test('stdin is the given bytes', async () => {
    const r = await t.run(['stdin'], { stdin: new TextEncoder().encode('piped input\n') });
    expect(r.out).toBe('piped input\n');
  });

  test('no stdin is an empty stream', async () => {
    const r = await t.run(['stdin']);
    expect({ code: r.exitCode, out: r.out }).toEqual({ code: 0, out: '' });
  });

  test('stderr is captured apart from stdout', async () => {
    const r = await t.run(['nope']);
    expect({ code: r.exitCode, out: r.out, err: r.err }).toEqual({ code: 1, out: '', err: 'unknown command nope\n' });
  });

  test('base64 of 1 KB from a preopened file', async () => {
    const r = await t.run(['b64', 'kb.bin']);
    const expected = Buffer.from(new Uint8Array(1024).map((_, i) => i % 251)).toString('base64');
    expect(r.out).toBe(`${expected}\n`);
  });

  test('the clock works', async () => {
    const r = await t.run(['time']);
    expect(Math.abs(Number(r.out) - Date.now() / 1000)).toBeLessThan(5);
  });
});

describe('isolation between runs', () => {
  test('concurrent runs get separate hosts', async () => {
    const runs = await Promise.all(['one', 'two', 'three'].map((w) => t.run(['echo', w], { env: { WHO: w } })));
    expect(runs.map((r) => r.out)).toEqual(['one\n', 'two\n', 'three\n']);
  });

  test('a run after a trap starts clean', async () => {
    await t.run(['trap']);
    const r = await t.run(['echo', 'clean']);
    expect({ code: r.exitCode, out: r.out }).toEqual({ code: 0, out: 'clean\n' });
  });

  // A run leaves a static counter, a heap block and stack bytes set; every later run must see none of it,
  // whether its instance was made inline (back to back, recycled memory) or ahead of time (the warm spare).
  test('a tool writing to a global, the heap and the stack in one call does not see it in the next', async () => {
    const recycled = warmStats.memoriesRecycled;
    const back = [await t.run(['leak']), await t.run(['leak']), await t.run(['leak', '8']), await t.run(['leak'])];
    expect(back.map((r) => r.out)).toEqual(Array(4).fill('calls=0 dirty=0\n'));
    expect(warmStats.memoriesRecycled).toBeGreaterThan(recycled);
    const spares = warmStats.sparesUsed;
    const idle: string[] = [];
    for (let i = 0; i < 3; i++) {
      await Bun.sleep(5); // idle: the spare for the next call is built now
      idle.push((await t.run(['leak', i === 1 ? '8' : ''])).out);
    }
    expect(idle).toEqual(Array(3).fill('calls=0 dirty=0\n'));
    expect(warmStats.sparesUsed).toBeGreaterThan(spares);
  });

  test('a spare is bound to its own run only: argv, env and preopens of the call that takes it', async () => {
    await t.run(['echo', 'first'], { env: { WHO: 'a' } });
    await Bun.sleep(5);
    const r = await t.run(['getenv', 'WHO'], { env: { WHO: 'b' } });
    expect(r.out).toBe('b\n');
    await Bun.sleep(5);
    expect((await t.run(['getenv', 'WHO'])).out).toBe('(unset)\n');
  });

  test('a preopen that does not exist is a clear error, not a crash', async () => {
    const p = runComponent(t.tool, { args: ['tool', 'ls', '.'], env: {}, preopens: [{ hostPath: join(dir, 'missing'), guestPath: '/', readOnly: true }], limits: DEFAULT_LIMITS, isolation: 'in-process' });
    await expect(p).rejects.toThrow('cannot set up the sandbox');
  });

  test('decode helper keeps the raw result', async () => {
    const raw = await runComponent(t.tool, { args: ['tool', 'echo', 'x'], env: {}, preopens: [], limits: DEFAULT_LIMITS, isolation: 'in-process' });
    expect(decode(raw).out).toBe('x\n');
  });
});
