import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTool } from '../../../src/tools/builtin/index.ts';
import { makeContext, removeDir, runTool, tempDir, type TestContext } from '../tool-context.ts';

let dir: string;
let ctx: TestContext;
beforeEach(() => {
  dir = tempDir();
  ctx = makeContext(dir);
});
afterEach(() => removeDir(dir));

const lines = (n: number, f: (i: number) => string = (i) => `line ${i}`) =>
  Array.from({ length: n }, (_, i) => f(i + 1)).join('\n') + '\n';

// Smallest valid PNG header bytes are enough: detection is by magic bytes.
const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]);

describe('read', () => {
  test('numbers lines like cat -n and marks the file read', async () => {
    writeFileSync(join(dir, 'a.txt'), 'alpha\n\tbeta\r\ngamma');
    const result = await runTool(readTool, { file_path: 'a.txt' }, ctx);
    expect(result).toEqual({
      content: '     1\talpha\n     2\t\tbeta\n     3\tgamma',
      display: { type: 'file_read', path: join(dir, 'a.txt'), startLine: 1, lines: 3, totalLines: 3 },
    });
    expect([...ctx.readSet]).toEqual([join(dir, 'a.txt')]);
  });

  test('offset and limit read a window and say how to read on', async () => {
    writeFileSync(join(dir, 'big.txt'), lines(10));
    const result = await runTool(readTool, { file_path: join(dir, 'big.txt'), offset: 4, limit: 2 }, ctx);
    expect(result).toEqual({
      content: '     4\tline 4\n     5\tline 5\n\n(Showing lines 4-5 of 10. To read more, call read with offset=6.)',
      display: { type: 'file_read', path: join(dir, 'big.txt'), startLine: 4, lines: 2, totalLines: 10 },
    });
  });

  test('reads 2000 lines by default and says the total', async () => {
    writeFileSync(join(dir, 'long.txt'), lines(2500));
    const result = await runTool(readTool, { file_path: 'long.txt' }, ctx);
    const text = result.content as string;
    expect(text.split('\n').slice(-3)).toEqual([
      '  2000\tline 2000',
      '',
      '(Showing lines 1-2000 of 2500. To read more, call read with offset=2001.)',
    ]);
  });

  test('cuts lines over 2000 characters with a marker', async () => {
    writeFileSync(join(dir, 'wide.txt'), `${'x'.repeat(5000)}\nshort\n`);
    const result = await runTool(readTool, { file_path: 'wide.txt' }, ctx);
    expect(result.content).toBe(
      `     1\t${'x'.repeat(2000)}… [line truncated]\n     2\tshort\n\n(Lines longer than 2000 characters were cut.)`,
    );
  });

  test('images are detected by their bytes, not their name', async () => {
    writeFileSync(join(dir, 'picture.dat'), PNG_BYTES);
    const result = await runTool(readTool, { file_path: 'picture.dat' }, ctx);
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'Image picture.dat (png, 16 B):' },
        { type: 'image', mediaType: 'image/png', data: PNG_BYTES.toString('base64') },
      ],
      display: { type: 'file_read', path: join(dir, 'picture.dat'), startLine: 1, lines: 0, totalLines: 0, image: true },
    });
    writeFileSync(join(dir, 'fake.png'), 'not an image\n');
    expect((await runTool(readTool, { file_path: 'fake.png' }, ctx)).content).toBe('     1\tnot an image');
  });

  test('binary files are refused with a clear message', async () => {
    writeFileSync(join(dir, 'blob.bin'), Buffer.from([1, 2, 0, 3]));
    expect(await runTool(readTool, { file_path: 'blob.bin' }, ctx)).toEqual({
      content: 'blob.bin is a binary file (4 B); read only reads text and images. Use a command (e.g. file, xxd, strings) to inspect it.',
      isError: true,
    });
    expect(ctx.readSet.size).toBe(0);
  });

  test('large files need offset/limit', async () => {
    writeFileSync(join(dir, 'huge.log'), lines(40_000, (i) => `entry number ${i}`));
    const refused = await runTool(readTool, { file_path: 'huge.log' }, ctx);
    expect(refused).toEqual({
      content: 'huge.log is 731 KB, over the 256 KB limit for reading a whole file. Read it in parts with offset and limit (e.g. offset=1, limit=2000), or use grep to find the lines you need.',
      isError: true,
    });
    const part = await runTool(readTool, { file_path: 'huge.log', offset: 39_999, limit: 5 }, ctx);
    expect(part.content).toBe(' 39999\tentry number 39999\n 40000\tentry number 40000');
  });

  test('missing files, folders, empty files and offsets past the end', async () => {
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'empty.txt'), '');
    writeFileSync(join(dir, 'three.txt'), lines(3));
    expect(await runTool(readTool, { file_path: 'nope.txt' }, ctx)).toEqual({
      content: `File does not exist: nope.txt (working folder: ${dir}). Check the path, or use glob to find the file.`,
      isError: true,
    });
    expect((await runTool(readTool, { file_path: 'sub' }, ctx)).content).toBe('sub is a folder, not a file. Use ls to list it, or glob to find files in it.');
    expect(await runTool(readTool, { file_path: 'empty.txt' }, ctx)).toEqual({
      content: '(empty.txt is empty.)',
      display: { type: 'file_read', path: join(dir, 'empty.txt'), startLine: 1, lines: 0, totalLines: 0 },
    });
    expect((await runTool(readTool, { file_path: 'three.txt', offset: 9 }, ctx)).content).toBe(
      'three.txt has 3 lines; offset 9 is past the end. Use an offset between 1 and 3.',
    );
  });

  test('refuses paths outside the working folder', async () => {
    const result = await runTool(readTool, { file_path: '/etc/hostname' }, ctx);
    expect(result.isError).toBe(true);
    expect(result.content).toStartWith('Cannot read /etc/hostname: /etc/hostname is outside the allowed folders');
  });

  test('intent: Read rule on the absolute path', () => {
    expect(readTool.intent({ file_path: 'src/x.ts' }, { cwd: dir, roots: [dir] })).toEqual({
      ruleName: 'Read',
      subject: join(dir, 'src/x.ts'),
      paths: [{ path: join(dir, 'src/x.ts'), access: 'read' }],
      summary: 'Read src/x.ts',
    });
  });
});
