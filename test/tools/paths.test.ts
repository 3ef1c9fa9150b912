import { afterEach, beforeEach, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { expandHome, intentPath, resolveToolPath, ToolError } from '../../src/tools/index.ts';
import { makeContext, removeDir, tempDir } from './tool-context.ts';

let base: string;
let root: string;
let shared: string;

beforeEach(() => {
  base = tempDir();
  root = join(base, 'project');
  shared = join(base, 'shared');
  mkdirSync(root);
  mkdirSync(join(shared, 'docs'), { recursive: true });
  writeFileSync(join(shared, 'docs', 'notes.md'), 'notes');
  writeFileSync(join(base, 'secret.txt'), 'secret');
});
afterEach(() => removeDir(base));

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof ToolError) return e.message;
    throw e;
  }
  throw new Error('expected a ToolError');
}

test('inside the roots: lexical and real path', () => {
  const ctx = makeContext(root);
  expect(resolveToolPath(ctx, 'a/b.txt', 'write')).toEqual({ path: join(root, 'a/b.txt'), realPath: join(root, 'a/b.txt') });
});

test('outside the roots: a ToolError that says what to do', () => {
  const ctx = makeContext(root);
  expect(refusal(() => resolveToolPath(ctx, '../secret.txt', 'read'))).toBe(
    `Cannot read ../secret.txt: ../secret.txt climbs out to ${join(base, 'secret.txt')}, which is outside the allowed folders (allowed: ${root}). Use a path inside the allowed folders, or ask the user to allow this one.`,
  );
  expect(refusal(() => resolveToolPath(ctx, join(base, 'secret.txt'), 'write'))).toStartWith(`Cannot write to ${join(base, 'secret.txt')}:`);
});

test('a path through an approved folder is allowed; the approval does not widen to siblings', () => {
  const ctx = makeContext(root, { approvedPaths: [shared] });
  expect(resolveToolPath(ctx, join(shared, 'docs/notes.md'), 'read')).toEqual({
    path: join(shared, 'docs/notes.md'),
    realPath: join(shared, 'docs/notes.md'),
  });
  expect(() => resolveToolPath(ctx, join(base, 'secret.txt'), 'read')).toThrow(ToolError);
});

test('an approved single file equals the path; a symlink from the approved folder to elsewhere is refused', () => {
  symlinkSync(join(base, 'secret.txt'), join(shared, 'docs', 'sneaky'));
  const ctx = makeContext(root, { approvedPaths: [join(shared, 'docs', 'notes.md')] });
  expect(resolveToolPath(ctx, join(shared, 'docs/notes.md'), 'read').realPath).toBe(join(shared, 'docs/notes.md'));
  const wide = makeContext(root, { approvedPaths: [shared] });
  expect(refusal(() => resolveToolPath(wide, join(shared, 'docs/sneaky'), 'read'))).toContain('(the approval covers the path, not where its symlinks lead)');
});

test('~ expands to the home folder', () => {
  expect([expandHome('~'), expandHome('~/x/y'), expandHome('~user/x'), expandHome('a~')]).toEqual([
    homedir(),
    join(homedir(), 'x/y'),
    '~user/x',
    'a~',
  ]);
});

test('intentPath normalises without touching the disk', () => {
  const ctx = { cwd: '/does/not/exist', roots: ['/does/not/exist'] };
  expect([intentPath(ctx, 'a/../b//c/'), intentPath(ctx, '/abs/./x'), intentPath(ctx, '../up')]).toEqual([
    '/does/not/exist/b/c',
    '/abs/x',
    '/does/not/up',
  ]);
});
