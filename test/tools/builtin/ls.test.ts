import { afterEach, beforeEach, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { lsTool } from '../../../src/tools/builtin/index.ts';
import { makeContext, removeDir, runTool, tempDir, type TestContext } from '../tool-context.ts';
import { writeTree } from './tree.ts';

let dir: string;
let ctx: TestContext;
beforeEach(() => {
  dir = tempDir();
  ctx = makeContext(dir);
});
afterEach(() => removeDir(dir));

test('lists folders first, then files with sizes and symlinks with targets', async () => {
  writeTree(dir, { 'b.txt': 'x'.repeat(2048), 'a.txt': 'hi', 'zdir/inner.txt': '', 'adir/x': '', 'debug.log': '' });
  symlinkSync('a.txt', join(dir, 'link'));
  expect(await runTool(lsTool, { ignore: ['*.log'] }, ctx)).toEqual({
    content: [`${dir}/ (5 entries)`, '- adir/', '- zdir/', '- a.txt  (2 B)', '- b.txt  (2.0 KB)', '- link -> a.txt'].join('\n'),
    display: { type: 'listing', path: dir, entries: 5 },
  });
});

test('a sub-folder, an empty folder, a file and a missing path', async () => {
  writeTree(dir, { 'src/index.ts': 'export {};\n' });
  mkdirSync(join(dir, 'empty'));
  expect((await runTool(lsTool, { path: 'src' }, ctx)).content).toBe('src/ (1 entry)\n- index.ts  (11 B)');
  expect((await runTool(lsTool, { path: 'empty' }, ctx)).content).toBe('empty/ is empty.');
  expect((await runTool(lsTool, { path: 'src/index.ts' }, ctx)).content).toBe('src/index.ts is a file, not a folder. Use read to read it.');
  expect(await runTool(lsTool, { path: 'nope' }, ctx)).toEqual({
    content: `Path does not exist: nope (working folder: ${dir}). Check the path.`,
    isError: true,
  });
});

test('refuses folders outside the roots', async () => {
  const result = await runTool(lsTool, { path: '/' }, ctx);
  expect(result.isError).toBe(true);
  expect(result.content).toStartWith('Cannot read /: / is outside the allowed folders');
});
