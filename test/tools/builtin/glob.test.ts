import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { globTool } from '../../../src/tools/builtin/index.ts';
import { makeContext, removeDir, runTool, tempDir, type TestContext } from '../tool-context.ts';
import { writeTree } from './tree.ts';

let dir: string;
let ctx: TestContext;
beforeEach(() => {
  dir = tempDir();
  ctx = makeContext(dir);
  writeTree(dir, {
    '.gitignore': 'dist/\n*.log\n',
    'src/a.ts': '',
    'src/b.tsx': '',
    'src/lib/c.ts': '',
    'src/lib/.gitignore': 'generated.ts\n!keep.log\n',
    'src/lib/generated.ts': '',
    'src/lib/keep.log': '',
    'dist/out.ts': '',
    'debug.log': '',
    '.git/config.ts': '',
    'README.md': '',
  });
});
afterEach(() => removeDir(dir));

describe('glob', () => {
  test('recursive pattern, newest first, honouring nested .gitignore files and skipping .git', async () => {
    expect(await runTool(globTool, { pattern: '**/*.ts' }, ctx)).toEqual({
      content: 'src/lib/c.ts\nsrc/a.ts',
      display: { type: 'matches', count: 2, truncated: false },
    });
  });

  test('a nested .gitignore can re-include what a parent ignored', async () => {
    expect((await runTool(globTool, { pattern: '*.log' }, ctx)).content).toBe('src/lib/keep.log');
  });

  test('a pattern without a slash matches names at any depth; braces work', async () => {
    expect((await runTool(globTool, { pattern: '*.{ts,tsx}' }, ctx)).content).toBe('src/lib/c.ts\nsrc/b.tsx\nsrc/a.ts');
  });

  test('path narrows the search; an absolute pattern carries its folder', async () => {
    expect((await runTool(globTool, { pattern: '*.ts', path: 'src/lib' }, ctx)).content).toBe('src/lib/c.ts');
    expect((await runTool(globTool, { pattern: `${dir}/src/**/*.ts` }, ctx)).content).toBe('src/lib/c.ts\nsrc/a.ts');
  });

  test('respects the parent .gitignore when the walk starts below it', async () => {
    writeTree(dir, { 'src/x.log': '' });
    expect((await runTool(globTool, { pattern: 'src/**/*.log' }, ctx)).content).toBe('src/lib/keep.log');
  });

  test('no match, and a file given as path', async () => {
    expect(await runTool(globTool, { pattern: '**/*.rs' }, ctx)).toEqual({
      content: 'No files found matching **/*.rs in the working folder.',
      display: { type: 'matches', count: 0, truncated: false },
    });
    expect((await runTool(globTool, { pattern: '*', path: 'README.md' }, ctx)).content).toBe('README.md is a file, not a folder. Give a folder as path.');
  });

  test('caps results at 200 and says so', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 250; i++) many[`many/f${String(i).padStart(3, '0')}.txt`] = '';
    writeTree(dir, many);
    const result = await runTool(globTool, { pattern: 'many/*.txt' }, ctx);
    const lines = (result.content as string).split('\n');
    expect(lines.length).toBe(201);
    expect(lines[0]).toBe('many/f249.txt');
    expect(lines[200]).toBe('(Showing 200 of 250 files, newest first. Use a more specific pattern or path to see the rest.)');
    expect(result.display).toEqual({ type: 'matches', count: 250, truncated: true });
  });

  test('does not walk through a symlinked folder that leads outside', async () => {
    const outside = tempDir();
    try {
      writeTree(outside, { 'secret.ts': '' });
      symlinkSync(outside, join(dir, 'src', 'out'));
      expect((await runTool(globTool, { pattern: '**/secret.ts' }, ctx)).content).toBe('No files found matching **/secret.ts in the working folder.');
      const direct = await runTool(globTool, { pattern: 'src/out/*.ts' }, ctx);
      expect(direct.isError).toBe(true);
      expect(direct.content).toContain('resolves through a symlink to');
    } finally {
      removeDir(outside);
    }
  });

  test('intent: Read rule on the searched folder', () => {
    mkdirSync(join(dir, 'x'), { recursive: true });
    expect(globTool.intent({ pattern: '*.ts', path: 'x' }, { cwd: dir, roots: [dir] })).toEqual({
      ruleName: 'Read',
      subject: join(dir, 'x'),
      paths: [{ path: join(dir, 'x'), access: 'read' }],
      summary: 'Find files matching *.ts in x',
    });
  });
});
