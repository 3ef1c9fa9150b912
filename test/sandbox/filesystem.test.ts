import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir, toolRunner, type ToolRunner } from './support.ts';

/**
 * The hostile filesystem suite, through the real host and a real component:
 * every escape from a preopen must fail with the WASI `not-permitted` error
 * (wasi-libc errno 63, EPERM), and a read-only preopen must refuse every write
 * (`read-only`, errno 69, EROFS). The preview1 adapter reports every non-zero
 * exit status as 1, so a failed command is exit code 1.
 */

const EPERM = '(errno 63)';
const EROFS = '(errno 69)';
const PASSWD_LINE = /^root:/m;

let base: string;
let root: string;
let outside: string;
let ro: string;
let t: ToolRunner;

beforeAll(async () => {
  base = tempDir('fs');
  root = join(base, 'root');
  outside = join(base, 'outside');
  ro = join(base, 'ro');
  for (const d of [root, outside, ro, join(root, 'sub')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(root, 'hello.txt'), 'hello\n');
  writeFileSync(join(root, 'sub', 'inner.txt'), 'inner\n');
  writeFileSync(join(outside, 'secret.txt'), 'secret\n');
  writeFileSync(join(ro, 'data.txt'), 'data\n');
  symlinkSync('/etc/passwd', join(root, 'evil-abs'));
  symlinkSync('../../../../../../../../etc/passwd', join(root, 'evil-rel'));
  symlinkSync('/etc', join(root, 'evil-dir'));
  symlinkSync('../outside', join(root, 'evil-reldir'));
  symlinkSync('../outside/not-there.txt', join(root, 'dangling'));
  symlinkSync('/nonexistent-moat-target', join(root, 'dangling-abs'));
  symlinkSync('sub/inner.txt', join(root, 'inner-link'));
  t = await toolRunner(join(base, 'cache'), [
    { hostPath: root, guestPath: '/', readOnly: false },
    { hostPath: ro, guestPath: '/ro', readOnly: true },
  ]);
});

afterAll(() => removeDir(base));

describe('reads inside the preopen work', () => {
  test.each([['hello.txt'], ['/hello.txt'], ['sub/../hello.txt'], ['./sub/../hello.txt']])('cat %s', async (path) => {
    const r = await t.run(['cat', path]);
    expect({ code: r.exitCode, out: r.out }).toEqual({ code: 0, out: 'hello\n' });
  });
  test('a symlink that stays inside is followed', async () => {
    const r = await t.run(['cat', 'inner-link']);
    expect({ code: r.exitCode, out: r.out }).toEqual({ code: 0, out: 'inner\n' });
  });
  test('ls lists the preopen without following links out', async () => {
    const r = await t.run(['ls', '.']);
    expect(r.exitCode).toBe(0);
    expect(r.out.split('\n').filter(Boolean).sort()).toEqual(
      ['dangling', 'dangling-abs', 'evil-abs', 'evil-dir', 'evil-rel', 'evil-reldir', 'hello.txt', 'inner-link', 'sub'].sort(),
    );
  });
});

describe('every escape is not-permitted', () => {
  test.each([
    ['../outside/secret.txt'],
    ['../../../../../../etc/passwd'],
    ['sub/../../outside/secret.txt'],
    ['evil-abs'],
    ['evil-rel'],
    ['evil-dir/passwd'],
    ['evil-reldir/secret.txt'],
    ['dangling'],
    ['dangling-abs'],
    ['/ro/../../outside/secret.txt'],
  ])('cat %s', async (path) => {
    const r = await t.run(['cat', path]);
    expect(r.exitCode).toBe(1);
    expect(r.err).toContain(EPERM);
    expect(r.out).toBe('');
  });

  test('/etc/passwd by absolute path resolves inside the preopen, never to the host file', async () => {
    const r = await t.run(['cat', '/etc/passwd']);
    expect(r.exitCode).toBe(1);
    expect(r.out).not.toMatch(PASSWD_LINE);
    expect(r.err).toContain('No such file or directory');
  });

  test('/etc/passwd with no preopen at / is not reachable at all', async () => {
    const r = await t.run(['cat', '/etc/passwd'], { preopens: [{ hostPath: root, guestPath: '/work', readOnly: true }] });
    expect(r.exitCode).toBe(1);
    expect(r.out).not.toMatch(PASSWD_LINE);
  });

  test.each([['evil-dir'], ['evil-reldir'], ['..']])('ls %s', async (path) => {
    const r = await t.run(['ls', path]);
    expect(r.exitCode).toBe(1);
    expect(r.err).toContain(EPERM);
  });

  test.each([['stat', 'evil-dir/passwd'], ['stat', '../outside/secret.txt'], ['b64', 'evil-abs']])('%s %s', async (cmd, path) => {
    const r = await t.run([cmd, path]);
    expect(r.err).toContain(EPERM);
    expect(r.out).not.toMatch(PASSWD_LINE);
  });

  test('writing through a dangling symlink creates nothing outside', async () => {
    const r = await t.run(['write', 'dangling', 'pwned']);
    expect(r.err).toContain(EPERM);
    expect(existsSync(join(outside, 'not-there.txt'))).toBe(false);
    const abs = await t.run(['write', 'dangling-abs', 'pwned']);
    expect(abs.err).toContain(EPERM);
    expect(existsSync('/nonexistent-moat-target')).toBe(false);
  });

  test('writing, renaming and mkdir above the preopen are refused', async () => {
    const w = await t.run(['write', '../outside/new.txt', 'x']);
    const mv = await t.run(['mv', 'hello.txt', '../outside/moved.txt']);
    const mk = await t.run(['mkdir', '../outside/newdir']);
    const rm = await t.run(['rm', '../outside/secret.txt']);
    expect([w.err, mv.err, mk.err, rm.err].map((e) => e.includes(EPERM))).toEqual([true, true, true, true]);
    expect(existsSync(join(outside, 'new.txt'))).toBe(false);
    expect(existsSync(join(outside, 'moved.txt'))).toBe(false);
    expect(existsSync(join(outside, 'newdir'))).toBe(false);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('secret\n');
  });

  test('symlink creation is refused, whatever the target', async () => {
    for (const target of ['/etc/passwd', '../outside', 'hello.txt']) {
      const r = await t.run(['symlink', target, 'new-link']);
      expect(r.err).toContain(EPERM);
    }
    expect(() => lstatSync(join(root, 'new-link'))).toThrow();
  });

  test('hard-link creation is refused', async () => {
    const r = await t.run(['link', 'hello.txt', 'hard']);
    expect(r.err).toContain(EPERM);
    expect(existsSync(join(root, 'hard'))).toBe(false);
  });
});

describe('writable and read-only preopens', () => {
  test('a read-write preopen accepts writes', async () => {
    expect((await t.run(['write', 'made.txt', 'made'])).exitCode).toBe(0);
    expect(readFileSync(join(root, 'made.txt'), 'utf8')).toBe('made');
    expect((await t.run(['append', 'made.txt', '+more'])).exitCode).toBe(0);
    expect(readFileSync(join(root, 'made.txt'), 'utf8')).toBe('made+more');
    expect((await t.run(['mkdir', 'newdir'])).exitCode).toBe(0);
    expect((await t.run(['mv', 'made.txt', 'newdir/moved.txt'])).exitCode).toBe(0);
    expect((await t.run(['rm', 'newdir/moved.txt'])).exitCode).toBe(0);
    expect((await t.run(['rmdir', 'newdir'])).exitCode).toBe(0);
    expect(existsSync(join(root, 'newdir'))).toBe(false);
  });

  test('a read-only preopen can be read', async () => {
    const r = await t.run(['cat', '/ro/data.txt']);
    expect({ code: r.exitCode, out: r.out }).toEqual({ code: 0, out: 'data\n' });
  });

  test.each([
    ['write', '/ro/new.txt', 'x'],
    ['write', '/ro/data.txt', 'overwritten'],
    ['append', '/ro/data.txt', 'more'],
    ['rm', '/ro/data.txt', undefined],
    ['mkdir', '/ro/dir', undefined],
    ['mv', '/ro/data.txt', '/ro/renamed.txt'],
    ['mv', '/ro/data.txt', '/moved-out.txt'],
    ['mv', '/hello.txt', '/ro/moved-in.txt'],
  ])('%s %s is read-only', async (cmd: string, a: string, b?: string) => {
    const r = await t.run(b === undefined ? [cmd, a] : [cmd, a, b]);
    expect(r.exitCode).toBe(1);
    expect(r.err).toContain(EROFS);
    expect(readFileSync(join(ro, 'data.txt'), 'utf8')).toBe('data\n');
    expect(existsSync(join(ro, 'new.txt')) || existsSync(join(ro, 'dir')) || existsSync(join(ro, 'renamed.txt'))).toBe(false);
  });

  test('no preopens: nothing is visible', async () => {
    const r = await t.run(['cat', 'hello.txt'], { preopens: [] });
    expect(r.exitCode).toBe(1);
    expect(r.out).toBe('');
  });
});
