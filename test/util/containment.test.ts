import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkContainment, isWithin } from '../../src/util/index.ts';
import { tempDir } from '../support/temp.ts';

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = tempDir('moat-');
  root = join(base, 'project');
  outside = join(base, 'outside');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, 'src', 'a.ts'), 'a');
  writeFileSync(join(outside, 'secret.txt'), 'secret');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('checkContainment', () => {
  test('a relative path inside the root resolves to itself', () => {
    expect(checkContainment([root], root, 'src/a.ts')).toEqual({
      ok: true,
      path: join(root, 'src/a.ts'),
      realPath: join(root, 'src/a.ts'),
    });
  });

  test('a file that does not exist yet, in folders that do not exist yet, is allowed', () => {
    expect(checkContainment([root], join(root, 'src'), 'new/deeper/b.ts')).toEqual({
      ok: true,
      path: join(root, 'src/new/deeper/b.ts'),
      realPath: join(root, 'src/new/deeper/b.ts'),
    });
  });

  test('.. that stays inside is fine; .. that climbs out is refused', () => {
    expect(checkContainment([root], join(root, 'src'), '../src/./a.ts')).toMatchObject({ ok: true, path: join(root, 'src/a.ts') });
    expect(checkContainment([root], root, '../outside/secret.txt')).toEqual({
      ok: false,
      reason: `../outside/secret.txt climbs out to ${join(outside, 'secret.txt')}, which is outside the allowed folders (allowed: ${root}).`,
    });
    expect(checkContainment([root], root, 'src/../../outside').ok).toBe(false);
  });

  test('an absolute path outside is refused', () => {
    expect(checkContainment([root], root, '/etc/passwd')).toEqual({
      ok: false,
      reason: `/etc/passwd is outside the allowed folders (allowed: ${root}).`,
    });
  });

  test('a symlink to a file outside is refused', () => {
    symlinkSync(join(outside, 'secret.txt'), join(root, 'link.txt'));
    expect(checkContainment([root], root, 'link.txt')).toEqual({
      ok: false,
      reason: `${join(root, 'link.txt')} resolves through a symlink to ${join(outside, 'secret.txt')}, which is outside the allowed folders (allowed: ${root}).`,
    });
  });

  test('a symlink to a folder outside, then a file under it (existing or not), is refused', () => {
    symlinkSync(outside, join(root, 'out'));
    expect(checkContainment([root], root, 'out/secret.txt').ok).toBe(false);
    expect(checkContainment([root], root, 'out/new-file.txt')).toEqual({
      ok: false,
      reason: `${join(root, 'out/new-file.txt')} resolves through a symlink to ${join(outside, 'new-file.txt')}, which is outside the allowed folders (allowed: ${root}).`,
    });
  });

  test('a relative symlink that climbs out is refused', () => {
    symlinkSync('../../outside', join(root, 'src', 'up'));
    expect(checkContainment([root], root, 'src/up/secret.txt')).toEqual({
      ok: false,
      reason: `${join(root, 'src/up/secret.txt')} resolves through a symlink to ${join(outside, 'secret.txt')}, which is outside the allowed folders (allowed: ${root}).`,
    });
  });

  test('a dangling symlink is refused, even when its target would be inside', () => {
    symlinkSync(join(outside, 'nothing-here'), join(root, 'dangling'));
    symlinkSync('missing-inside', join(root, 'dangling-inside'));
    expect(checkContainment([root], root, 'dangling')).toEqual({
      ok: false,
      reason: `${join(root, 'dangling')} is a symlink to ${join(outside, 'nothing-here')}, which does not exist; refusing to follow a dangling symlink. Use the target path directly if that is what you mean.`,
    });
    expect(checkContainment([root], root, 'dangling-inside').ok).toBe(false);
    expect(checkContainment([root], root, 'dangling/below/file').ok).toBe(false);
  });

  test('a symlink inside pointing inside is allowed and resolved', () => {
    symlinkSync(join(root, 'src'), join(root, 'alias'));
    expect(checkContainment([root], root, 'alias/a.ts')).toEqual({
      ok: true,
      path: join(root, 'alias/a.ts'),
      realPath: join(root, 'src/a.ts'),
    });
  });

  test('a symlink loop is refused with a reason', () => {
    symlinkSync(join(root, 'loop-b'), join(root, 'loop-a'));
    symlinkSync(join(root, 'loop-a'), join(root, 'loop-b'));
    expect(checkContainment([root], root, 'loop-a/x')).toEqual({ ok: false, reason: `${join(root, 'loop-a/x')} is part of a symlink loop.` });
  });

  test('a path outside that leads back inside through a symlink is judged by where it lands', () => {
    symlinkSync(root, join(outside, 'back'));
    expect(checkContainment([root], root, join(outside, 'back/src/a.ts'))).toEqual({
      ok: true,
      path: join(outside, 'back/src/a.ts'),
      realPath: join(root, 'src/a.ts'),
    });
  });

  test('several roots; a sibling with a shared name prefix is not inside', () => {
    mkdirSync(`${root}-other`);
    expect(checkContainment([root, outside], root, join(outside, 'secret.txt')).ok).toBe(true);
    expect(checkContainment([root], root, `${root}-other/x`).ok).toBe(false);
  });

  test('empty and NUL paths are refused', () => {
    expect(checkContainment([root], root, '')).toEqual({ ok: false, reason: 'the path is empty; give a file or folder path.' });
    expect(checkContainment([root], root, 'a\0b')).toEqual({ ok: false, reason: 'the path contains a NUL byte.' });
  });
});

test('isWithin compares whole components', () => {
  expect([isWithin('/a/b', '/a/b'), isWithin('/a/b', '/a/b/c'), isWithin('/a/b', '/a/bc'), isWithin('/', '/x')]).toEqual([true, true, false, true]);
});
