import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { grepTool } from '../../../src/tools/builtin/index.ts';
import { makeContext, removeDir, runTool, tempDir, type TestContext } from '../tool-context.ts';
import { writeTree } from './tree.ts';

let dir: string;
let ctx: TestContext;
beforeEach(() => {
  dir = tempDir();
  ctx = makeContext(dir);
  writeTree(dir, {
    '.gitignore': 'build/\n',
    'src/app.ts': 'import { x } from "./x";\nexport function main() {\n  return x + 1;\n}\n',
    'src/x.ts': 'export const x = 41;\n// TODO: remove\n',
    'src/util.py': 'def main():\n    pass  # TODO\n',
    'build/app.js': 'function main() {}\n',
    '.git/HEAD': 'function main\n',
    'bin/tool': Buffer.from('function main\0binary'),
    'docs/notes.md': 'Main points\nmain idea\n',
  });
});
afterEach(() => removeDir(dir));

const grep = (input: Record<string, unknown>) => runTool(grepTool, input, ctx);

describe('grep', () => {
  test('files_with_matches by default, newest first; skips ignored, .git and binary files', async () => {
    expect(await grep({ pattern: 'main' })).toEqual({
      content: 'Found 3 files\ndocs/notes.md\nsrc/util.py\nsrc/app.ts',
      display: { type: 'matches', count: 3, truncated: false },
    });
  });

  test('content mode: path:line:text, case-insensitive, line numbers on by default', async () => {
    expect((await grep({ pattern: 'main', output_mode: 'content', '-i': true, path: 'docs' })).content).toBe(
      'docs/notes.md:1:Main points\ndocs/notes.md:2:main idea',
    );
    expect((await grep({ pattern: 'idea', output_mode: 'content', '-n': false })).content).toBe('docs/notes.md:main idea');
  });

  test('context lines and group separators', async () => {
    writeTree(dir, { 'ctx.txt': 'a\nhit 1\nb\nc\nd\ne\nhit 2\nf\n' });
    expect((await grep({ pattern: 'hit', path: 'ctx.txt', output_mode: 'content', '-C': 1 })).content).toBe(
      ['ctx.txt-1-a', 'ctx.txt:2:hit 1', 'ctx.txt-3-b', '--', 'ctx.txt-6-e', 'ctx.txt:7:hit 2', 'ctx.txt-8-f'].join('\n'),
    );
    expect((await grep({ pattern: 'hit 2', path: 'ctx.txt', output_mode: 'content', '-B': 2, '-A': 0 })).content).toBe(
      ['ctx.txt-5-d', 'ctx.txt-6-e', 'ctx.txt:7:hit 2'].join('\n'),
    );
  });

  test('count mode counts matching lines per file', async () => {
    writeTree(dir, { 'c.txt': 'TODO TODO\nnothing\nTODO\n' });
    expect((await grep({ pattern: 'TODO', output_mode: 'count', glob: '*.txt' })).content).toBe('c.txt:2');
  });

  test('type and glob filters', async () => {
    expect((await grep({ pattern: 'TODO', type: 'py' })).content).toBe('Found 1 file\nsrc/util.py');
    expect((await grep({ pattern: 'TODO', glob: '*.ts' })).content).toBe('Found 1 file\nsrc/x.ts');
    expect((await grep({ pattern: 'TODO', glob: '!*.ts' })).content).toBe('Found 1 file\nsrc/util.py');
    expect((await grep({ pattern: 'TODO', type: 'cobol' })).content).toStartWith('Unknown type "cobol". Known types: c, cpp,');
  });

  test('each line matches on its own unless multiline', async () => {
    writeTree(dir, { 'm.txt': 'start\nend\n' });
    expect((await grep({ pattern: 'start\\s+end', path: 'm.txt' })).content).toBe('No matches for /start\\s+end/ in m.txt.');
    expect((await grep({ pattern: 'start.end', path: 'm.txt', multiline: true, output_mode: 'content' })).content).toBe(
      'm.txt:1:start\nm.txt:2:end',
    );
    // `[^x]` may cross a newline in a whole-file scan; the line on its own must still match.
    writeTree(dir, { 'n.txt': 'ab\ncd\nab x\n' });
    expect((await grep({ pattern: 'ab[^x]+', path: 'n.txt', output_mode: 'content' })).content).toBe('n.txt:3:ab x');
  });

  test('head_limit cuts the output and says so', async () => {
    const many: Record<string, string> = {};
    for (let i = 0; i < 30; i++) many[`many/f${i}.txt`] = 'needle\n';
    writeTree(dir, many);
    const result = await grep({ pattern: 'needle', head_limit: 5 });
    expect((result.content as string).split('\n')).toHaveLength(1 + 5 + 2);
    expect(result.content).toEndWith('(Output cut after 5 entries. Narrow the search with path, glob or type, or raise head_limit.)');
    expect(result.display).toEqual({ type: 'matches', count: 30, truncated: true });
  });

  test('an invalid regex is an instruction, not a crash', async () => {
    const result = await grep({ pattern: 'foo(' });
    expect(result.isError).toBe(true);
    expect(result.content).toStartWith('Invalid regular expression "foo(":');
  });

  test('symlinks met in the walk are not followed', async () => {
    const outside = tempDir();
    try {
      writeTree(outside, { 'secret.txt': 'needle\n' });
      symlinkSync(join(outside, 'secret.txt'), join(dir, 'link.txt'));
      symlinkSync(outside, join(dir, 'linkdir'));
      expect((await grep({ pattern: 'needle' })).content).toBe('No matches for /needle/ in the working folder.');
    } finally {
      removeDir(outside);
    }
  });

  test('literal prefilter and regex agree (escaped metacharacters)', async () => {
    writeTree(dir, { 'p.txt': 'a.b\naxb\nfoo(bar)\n' });
    expect((await grep({ pattern: 'a\\.b', path: 'p.txt', output_mode: 'content' })).content).toBe('p.txt:1:a.b');
    expect((await grep({ pattern: 'foo\\(bar', path: 'p.txt', output_mode: 'content' })).content).toBe('p.txt:3:foo(bar)');
    expect((await grep({ pattern: 'FOO\\(BAR', '-i': true, path: 'p.txt', output_mode: 'count' })).content).toBe('p.txt:1');
  });

  test('intent: Read rule on the searched folder', () => {
    expect(grepTool.intent({ pattern: 'x', path: 'src' }, { cwd: dir, roots: [dir] })).toEqual({
      ruleName: 'Read',
      subject: join(dir, 'src'),
      paths: [{ path: join(dir, 'src'), access: 'read' }],
      summary: 'Search for /x/ in src',
    });
  });
});
