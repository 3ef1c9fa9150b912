import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTool, writeTool } from '../../../src/tools/builtin/index.ts';
import { makeContext, removeDir, runTool, tempDir, type TestContext } from '../tool-context.ts';

let dir: string;
let ctx: TestContext;
beforeEach(() => {
  dir = tempDir();
  ctx = makeContext(dir);
});
afterEach(() => removeDir(dir));

describe('write', () => {
  test('creates a file and its parent folders, with a diff for the UI', async () => {
    const result = await runTool(writeTool, { file_path: 'src/deep/new.ts', content: 'one\ntwo\n' }, ctx);
    expect(result).toEqual({
      content: 'Created src/deep/new.ts (2 lines).',
      display: {
        type: 'diff',
        path: join(dir, 'src/deep/new.ts'),
        patch: [
          '--- src/deep/new.ts',
          '+++ src/deep/new.ts',
          '@@ -0,0 +1,2 @@',
          '+one',
          '+two',
          '',
        ].join('\n'),
        // As jsdiff's parsePatch reads the patch back: a hunk from nothing starts at old line 1.
        hunks: [{ oldStart: 1, oldLines: 0, newStart: 1, newLines: 2, lines: ['+one', '+two'] }],
        added: 2,
        removed: 0,
        created: true,
      },
    });
    expect(readFileSync(join(dir, 'src/deep/new.ts'), 'utf8')).toBe('one\ntwo\n');
    // A file we just wrote counts as seen: writing it again needs no read.
    expect((await runTool(writeTool, { file_path: 'src/deep/new.ts', content: 'one\n' }, ctx)).isError).toBeUndefined();
  });

  test('refuses to overwrite a file that was not read, then overwrites after a read', async () => {
    writeFileSync(join(dir, 'old.txt'), 'a\nb\nc\n');
    expect(await runTool(writeTool, { file_path: 'old.txt', content: 'x\n' }, ctx)).toEqual({
      content: 'old.txt has not been read in this session. Read it with the Read tool first, then overwrite it.',
      isError: true,
    });
    expect(readFileSync(join(dir, 'old.txt'), 'utf8')).toBe('a\nb\nc\n');
    await runTool(readTool, { file_path: 'old.txt' }, ctx);
    const result = await runTool(writeTool, { file_path: 'old.txt', content: 'a\nB\nc\n' }, ctx);
    expect(result.content).toBe('Overwrote old.txt (+1 -1 lines).');
    expect(result.display).toMatchObject({ type: 'diff', added: 1, removed: 1, created: false });
    expect(readFileSync(join(dir, 'old.txt'), 'utf8')).toBe('a\nB\nc\n');
  });

  test('keeps CRLF line endings of an existing file', async () => {
    writeFileSync(join(dir, 'win.txt'), 'a\r\nb\r\n');
    await runTool(readTool, { file_path: 'win.txt' }, ctx);
    await runTool(writeTool, { file_path: 'win.txt', content: 'a\nb\nc\n' }, ctx);
    expect(readFileSync(join(dir, 'win.txt'), 'utf8')).toBe('a\r\nb\r\nc\r\n');
  });

  test('refuses folders and paths outside the roots', async () => {
    expect((await runTool(writeTool, { file_path: '.', content: 'x' }, ctx)).content).toBe('. is a folder; give a file path.');
    const outside = await runTool(writeTool, { file_path: '../escape.txt', content: 'x' }, ctx);
    expect(outside.isError).toBe(true);
    expect(outside.content).toStartWith('Cannot write to ../escape.txt: ../escape.txt climbs out to');
  });

  test('intent: Edit rule, write access, content preview, no disk access', () => {
    expect(writeTool.intent({ file_path: 'a/b.md', content: 'hi\n' }, { cwd: '/nowhere', roots: ['/nowhere'] })).toEqual({
      ruleName: 'Edit',
      subject: '/nowhere/a/b.md',
      paths: [{ path: '/nowhere/a/b.md', access: 'write' }],
      summary: 'Write a/b.md (1 line)',
      preview: { type: 'text', text: 'hi\n' },
    });
  });
});
