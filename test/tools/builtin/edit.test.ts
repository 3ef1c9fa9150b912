import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { editTool, readTool } from '../../../src/tools/builtin/index.ts';
import { makeContext, removeDir, runTool, tempDir, type TestContext } from '../tool-context.ts';

let dir: string;
let ctx: TestContext;
beforeEach(() => {
  dir = tempDir();
  ctx = makeContext(dir);
});
afterEach(() => removeDir(dir));

async function seed(name: string, text: string): Promise<void> {
  writeFileSync(join(dir, name), text);
  await runTool(readTool, { file_path: name }, ctx);
}
const contents = (name: string) => readFileSync(join(dir, name), 'utf8');

describe('edit', () => {
  test('replaces a unique match and returns a unified diff', async () => {
    await seed('a.ts', 'const a = 1;\nconst b = 2;\n');
    const result = await runTool(editTool, { file_path: 'a.ts', old_string: 'b = 2', new_string: 'b = 3' }, ctx);
    expect(result).toEqual({
      content: 'Edited a.ts: +1 -1 lines.',
      display: {
        type: 'diff',
        path: join(dir, 'a.ts'),
        patch: [
          '--- a.ts',
          '+++ a.ts',
          '@@ -1,2 +1,2 @@',
          ' const a = 1;',
          '-const b = 2;',
          '+const b = 3;',
          '',
        ].join('\n'),
        hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' const a = 1;', '-const b = 2;', '+const b = 3;'] }],
        added: 1,
        removed: 1,
        created: false,
      },
    });
    expect(contents('a.ts')).toBe('const a = 1;\nconst b = 3;\n');
  });

  test('refuses a file that was not read first', async () => {
    writeFileSync(join(dir, 'unread.ts'), 'x\n');
    expect(await runTool(editTool, { file_path: 'unread.ts', old_string: 'x', new_string: 'y' }, ctx)).toEqual({
      content: 'unread.ts has not been read in this session. Read it with the Read tool first, then edit it.',
      isError: true,
    });
    expect(contents('unread.ts')).toBe('x\n');
  });

  test('missing, ambiguous and no-op edits fail with instructions', async () => {
    await seed('m.ts', 'foo\nfoo\nfoo\n');
    expect((await runTool(editTool, { file_path: 'm.ts', old_string: 'bar', new_string: 'baz' }, ctx)).content).toBe(
      'old_string was not found in m.ts. It must match exactly, including whitespace and indentation; read the file again and copy the text.',
    );
    expect((await runTool(editTool, { file_path: 'm.ts', old_string: '     1\tfoo', new_string: 'x' }, ctx)).content).toBe(
      'old_string was not found in m.ts. It looks like it contains line-number prefixes from read output; remove them.',
    );
    expect(await runTool(editTool, { file_path: 'm.ts', old_string: 'foo', new_string: 'bar' }, ctx)).toEqual({
      content: 'old_string occurs 3 times in m.ts. Include more surrounding lines to make it unique, or set replace_all to true to replace every occurrence.',
      isError: true,
    });
    expect((await runTool(editTool, { file_path: 'm.ts', old_string: 'foo', new_string: 'foo' }, ctx)).content).toBe(
      'old_string and new_string are the same, so there is nothing to change. Give the new text in new_string.',
    );
    expect((await runTool(editTool, { file_path: 'nope.ts', old_string: 'a', new_string: 'b' }, ctx)).content).toBe(
      'File does not exist: nope.ts. Check the path, or use write to create a new file.',
    );
    expect(contents('m.ts')).toBe('foo\nfoo\nfoo\n');
  });

  test('replace_all replaces every match; $ patterns stay literal', async () => {
    await seed('r.ts', 'foo(); foo();\nfoo();\n');
    const result = await runTool(editTool, { file_path: 'r.ts', old_string: 'foo', new_string: "$&bar$'", replace_all: true }, ctx);
    expect(result.content).toBe('Edited r.ts (3 occurrences replaced): +2 -2 lines.');
    expect(contents('r.ts')).toBe("$&bar$'(); $&bar$'();\n$&bar$'();\n");
    await runTool(editTool, { file_path: 'r.ts', old_string: "$&bar$'(); $&bar$'();", new_string: '$1' }, ctx);
    expect(contents('r.ts')).toBe("$1\n$&bar$'();\n");
  });

  test('keeps CRLF line endings when the model sends \\n', async () => {
    await seed('win.txt', 'one\r\ntwo\r\nthree\r\n');
    const result = await runTool(editTool, { file_path: 'win.txt', old_string: 'one\ntwo', new_string: 'one\n1.5\ntwo' }, ctx);
    expect(result.isError).toBeUndefined();
    expect(contents('win.txt')).toBe('one\r\n1.5\r\ntwo\r\nthree\r\n');
  });

  test('intent never touches the disk; the approval preview falls back to the snippets when the file cannot be read', async () => {
    const input = { file_path: 'x/y.ts', old_string: 'a', new_string: 'b' };
    const intent = editTool.intent(input, { cwd: '/nowhere', roots: ['/nowhere'] });
    expect(intent).toEqual({ ruleName: 'Edit', subject: '/nowhere/x/y.ts', paths: [{ path: '/nowhere/x/y.ts', access: 'write' }], summary: 'Edit x/y.ts' });
    const preview = await editTool.approvalPreview!(input, { cwd: '/nowhere', roots: ['/nowhere'] });
    expect(preview).toMatchObject({ type: 'diff', path: '/nowhere/x/y.ts', added: 1, removed: 1, created: false });
    expect(preview?.type === 'diff' && preview.patch).toContain('@@ -1,1 +1,1 @@\n-a\n');
  });

  test("the approval preview is the finished card's patch: the file's real line numbers, the same context", async () => {
    const lines = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`);
    await seed('long.txt', `${lines.join('\n')}\n`);
    const input = { file_path: 'long.txt', old_string: 'line 9', new_string: 'line nine' };
    const preview = await editTool.approvalPreview!(input, { cwd: dir, roots: [dir] });
    expect(preview?.type === 'diff' && preview.patch).toContain('@@ -6,7 +6,7 @@');
    const done = await runTool(editTool, input, ctx);
    expect(done.display?.type === 'diff' && done.display.patch).toBe(preview?.type === 'diff' ? preview.patch : '');
    // An edit that does not apply previews the snippets (the call itself will say why).
    const snippets = await editTool.approvalPreview!({ ...input, old_string: 'absent' }, { cwd: dir, roots: [dir] });
    expect(snippets?.type === 'diff' && snippets.patch).toContain('@@ -1,1 +1,1 @@\n-absent\n');
  });
});
