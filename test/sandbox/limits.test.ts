import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { KILLED_EXIT_CODE, TRAP_EXIT_CODE } from '../../src/sandbox/index.ts';
import { removeDir, tempDir, toolRunner, type ToolRunner } from './support.ts';

/**
 * Every limit through the real host: each hit comes back as a clear result
 * (limitHit + the exact message), and the host process is unharmed (these
 * tests keep running in it, and the last one checks it still works).
 */

let dir: string;
let t: ToolRunner;

beforeAll(async () => {
  dir = tempDir('limits');
  t = await toolRunner(dir);
});
afterAll(() => removeDir(dir));

describe('fuel', () => {
  test('an infinite loop traps on fuel at the same point every run', async () => {
    const limits = { fuel: 50_000_000 };
    const a = await t.run(['loop'], { limits });
    const b = await t.run(['loop'], { limits });
    expect({ limitHit: a.limitHit, message: a.message, exitCode: a.exitCode }).toEqual({
      limitHit: 'fuel',
      message: 'fuel exhausted after 50,000,000 units',
      exitCode: TRAP_EXIT_CODE,
    });
    expect(a.fuelUsed).toBeGreaterThan(50_000_000);
    // Deterministic: the same instruction count at the trap, to the unit.
    expect(b.fuelUsed).toBe(a.fuelUsed);
  });

  test('the default budget message', async () => {
    const r = await t.run(['loop']);
    expect(r.message).toBe('fuel exhausted after 1,000,000,000 units');
  });

  test('fuel used is reported and grows with the work', async () => {
    const small = await t.run(['spin', '1000']);
    const big = await t.run(['spin', '100000']);
    expect([small.exitCode, big.exitCode]).toEqual([0, 0]);
    expect(small.fuelUsed).toBeGreaterThan(0);
    expect(big.fuelUsed - small.fuelUsed).toBeGreaterThan(99_000 * 5);
  });

  test('a budget that suffices lets the run finish', async () => {
    const r = await t.run(['spin', '100000'], { limits: { fuel: 100_000_000 } });
    expect({ code: r.exitCode, out: r.out, limitHit: r.limitHit }).toEqual({ code: 0, out: '100000\n', limitHit: undefined });
  });
});

describe('memory', () => {
  test('a memory bomb stops at the cap', async () => {
    const r = await t.run(['bomb']);
    expect({ limitHit: r.limitHit, message: r.message }).toEqual({ limitHit: 'memory', message: 'memory limit 16 MiB reached' });
    expect(r.peakMemoryBytes).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(r.peakMemoryBytes).toBeGreaterThan(8 * 1024 * 1024);
  });

  test('a failed allocation the tool reports is still the memory limit', async () => {
    const r = await t.run(['alloc', '64']);
    expect({ code: r.exitCode, err: r.err, limitHit: r.limitHit, message: r.message }).toEqual({
      code: 1,
      err: 'malloc(64 MiB) failed\n',
      limitHit: 'memory',
      message: 'memory limit 16 MiB reached',
    });
  });

  test('under the cap it works, and peak memory is reported', async () => {
    const r = await t.run(['alloc', '8']);
    expect({ code: r.exitCode, out: r.out }).toEqual({ code: 0, out: 'allocated 8 MiB\n' });
    expect(r.peakMemoryBytes).toBeGreaterThan(8 * 1024 * 1024);
  });

  test('a recycled memory that is already larger gives the run exactly the same headroom', async () => {
    // `leak 8` grows the memory by 8 pages; the next run gets that memory back (zeroed), a few pages larger.
    const plain = await t.run(['bomb']);
    await t.run(['leak', '8']);
    const afterGrowth = await t.run(['bomb']);
    expect(afterGrowth.limitHit).toBe('memory');
    expect(afterGrowth.peakMemoryBytes).toBeLessThanOrEqual(16 * 1024 * 1024);
    // The same pages to grow into; the allocator's own layout (a gap below its first new segment) may cost
    // it a page or two. Without the per-run limit the difference would be the 8+ pages the memory started with.
    expect(Math.abs(afterGrowth.peakMemoryBytes - plain.peakMemoryBytes)).toBeLessThanOrEqual(4 * 65536);
  });

  test('the cap is per call', async () => {
    const r = await t.run(['alloc', '64'], { limits: { memoryBytes: 128 * 1024 * 1024 } });
    expect({ code: r.exitCode, out: r.out }).toEqual({ code: 0, out: 'allocated 64 MiB\n' });
    const small = await t.run(['alloc', '8'], { limits: { memoryBytes: 4 * 1024 * 1024 } });
    expect(small.message).toBe('memory limit 4 MiB reached');
  });
});

describe('output', () => {
  test('an output flood stops at the cap and keeps exactly the cap', async () => {
    const r = await t.run(['flood'], { limits: { maxOutputBytes: 64 * 1024 } });
    expect({ limitHit: r.limitHit, message: r.message }).toEqual({ limitHit: 'output', message: 'output limit 64 KiB reached' });
    expect(r.stdout.length).toBe(64 * 1024);
    expect(r.out.startsWith('flood flood')).toBe(true);
  });

  test('the default cap message', async () => {
    const r = await t.run(['flood']);
    expect(r.message).toBe('output limit 1 MiB reached');
    expect(r.stdout.length).toBe(1024 * 1024);
  });
});

describe('deadline', () => {
  test('a tool that sleeps past the deadline is stopped in-process', async () => {
    const started = performance.now();
    const r = await t.run(['sleep', '10'], { limits: { timeoutMs: 300 } });
    expect({ limitHit: r.limitHit, message: r.message, out: r.out }).toEqual({ limitHit: 'timeout', message: 'timed out after 300 ms', out: '' });
    expect(performance.now() - started).toBeLessThan(2000);
  });

  test('a tool polling the clock is stopped at the deadline', async () => {
    const r = await t.run(['sleeploop'], { limits: { timeoutMs: 1000 } });
    expect({ limitHit: r.limitHit, message: r.message }).toEqual({ limitHit: 'timeout', message: 'timed out after 1 s' });
  });

  test('a busy loop in a child is SIGKILLed at the deadline', async () => {
    const started = performance.now();
    // Fuel so large it would spin for minutes: only the kill can stop it.
    const r = await t.run(['loop'], { isolation: 'child', limits: { timeoutMs: 500, fuel: 1e15 } });
    const elapsed = performance.now() - started;
    expect({ limitHit: r.limitHit, message: r.message, exitCode: r.exitCode }).toEqual({ limitHit: 'timeout', message: 'timed out after 500 ms', exitCode: KILLED_EXIT_CODE });
    expect(elapsed).toBeLessThan(5000);
  });

  test('a child run that finishes returns its result', async () => {
    const r = await t.run(['echo', 'from', 'child'], { isolation: 'child', env: { A: 'b' } });
    expect({ code: r.exitCode, out: r.out, limitHit: r.limitHit }).toEqual({ code: 0, out: 'from child\n', limitHit: undefined });
    expect(r.fuelUsed).toBeGreaterThan(0);
  });

  test('limits apply inside the child too', async () => {
    const r = await t.run(['loop'], { isolation: 'child', limits: { fuel: 10_000_000 } });
    expect(r.message).toBe('fuel exhausted after 10,000,000 units');
  });

  test('an abort signal kills a child run', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const r = await t.run(['loop'], { isolation: 'child', signal: ac.signal, limits: { fuel: 1e15, timeoutMs: 30_000 } });
    expect({ limitHit: r.limitHit, message: r.message }).toEqual({ limitHit: 'timeout', message: 'aborted' });
  });
});

describe('exit codes and traps', () => {
  test('a tool that exits 1', async () => {
    const r = await t.run(['exit', '1']);
    expect({ code: r.exitCode, err: r.err, limitHit: r.limitHit, trap: r.trap }).toEqual({ code: 1, err: 'exiting\n', limitHit: undefined, trap: undefined });
  });

  test('a tool that exits 0 explicitly', async () => {
    expect((await t.run(['exit', '0'])).exitCode).toBe(0);
  });

  test('a trap that is no limit is reported as a trap', async () => {
    const r = await t.run(['trap']);
    expect(r.exitCode).toBe(TRAP_EXIT_CODE);
    expect(r.limitHit).toBeUndefined();
    expect(r.trap).toBeString();
    expect(r.message).toStartWith('trap: ');
  });

  test('the host survived all of it: a normal run still works', async () => {
    const r = await t.run(['echo', 'still', 'here']);
    expect({ code: r.exitCode, out: r.out }).toEqual({ code: 0, out: 'still here\n' });
  });
});
