/**
 * Read's documents against independent readers: PDF page texts against
 * poppler's pdftotext, image dimensions against file(1), WAV metadata against
 * Python's wave module; notebooks as cells with their outputs.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTool } from '../../../src/tools/builtin/index.ts';
import { gif, NOTEBOOK, pdfWithPages, png, wav } from '../../support/document-fixtures.ts';
import { makeContext, removeDir, runTool, tempDir } from '../tool-context.ts';

let dir = '';
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => removeDir(dir));

const read = (input: Record<string, unknown>) => runTool(readTool, input, makeContext(dir));
const words = (s: string) => s.replace(/\s+/g, ' ').trim();

function pdftotext(file: string, page: number): string {
  const r = Bun.spawnSync(['pdftotext', '-f', String(page), '-l', String(page), file, '-']);
  if (r.exitCode !== 0) throw new Error(`pdftotext failed: ${r.stderr.toString()}`);
  return words(r.stdout.toString().replace(/\f/g, ''));
}

describe('Read: PDF', () => {
  const pages = [['Quarterly report', 'Revenue grew (a lot) by 12%'], ['Second page', 'with three', 'lines of text'], [], ['Appendix: back\\slash and (parens)']];
  let file = '';
  beforeAll(() => {
    file = join(dir, 'report.pdf');
    writeFileSync(file, pdfWithPages(pages));
  });

  test('every page with text matches pdftotext; the page without a text layer says so', async () => {
    const r = await read({ file_path: 'report.pdf' });
    const text = String(r.content);
    expect(text).toStartWith('PDF report.pdf: 4 pages, ');
    const bodies = text.split(/\n\n--- page \d+ ---\n/).slice(1);
    expect(bodies).toHaveLength(4);
    for (const n of [1, 2, 4]) expect(words(bodies[n - 1] ?? '')).toBe(pdftotext(file, n));
    expect(pdftotext(file, 3)).toBe('');
    expect(bodies[2]).toStartWith('(no text layer on this page');
  });

  test('pages picks pages; a bad list or a page past the end is a clear error; pages on a text file too', async () => {
    const r = String((await read({ file_path: 'report.pdf', pages: '2,4' })).content);
    expect(r).toContain('--- page 2 ---');
    expect(r).toContain('--- page 4 ---');
    expect(r).not.toContain('--- page 1 ---');
    expect((await read({ file_path: 'report.pdf', pages: '9' })).content).toBe('The document has 4 pages; page 9 is past the end.');
    expect((await read({ file_path: 'report.pdf', pages: 'two' })).content).toBe('pages "two" is not a page list: use "3", "1-5" or "2,4-6".');
    writeFileSync(join(dir, 'notes.txt'), 'x\n');
    expect((await read({ file_path: 'notes.txt', pages: '1' })).content).toBe('pages is for PDF files; notes.txt is not one. Use offset and limit for text.');
  });

  test('a long document shows the first 20 pages and says how to get the rest', async () => {
    writeFileSync(join(dir, 'long.pdf'), pdfWithPages(Array.from({ length: 23 }, (_, i) => [`page number ${i + 1}`])));
    const text = String((await read({ file_path: 'long.pdf' })).content);
    expect(text).toContain('--- page 20 ---\npage number 20');
    expect(text).not.toContain('--- page 21 ---');
    expect(text).toEndWith('(Showing pages 1-20 of 23. Read more with pages, e.g. pages="21-23".)');
  });

  test('a file that only claims to be a PDF is an error, not a crash', async () => {
    writeFileSync(join(dir, 'broken.pdf'), '%PDF-1.4\nthis is not really a pdf\n');
    const r = await read({ file_path: 'broken.pdf' });
    expect(r.isError).toBe(true);
    expect(String(r.content)).toStartWith('broken.pdf could not be read as a PDF: ');
  });
});

describe('Read: images, media, notebooks', () => {
  test('image dimensions agree with file(1)', async () => {
    for (const [name, bytes] of [['wide.png', png(37, 5)], ['tall.gif', gif(3, 41)]] as const) {
      writeFileSync(join(dir, name), bytes);
      const reference = /(\d+) x (\d+)/.exec(Bun.spawnSync(['file', join(dir, name)]).stdout.toString());
      expect(reference).not.toBeNull();
      const r = await read({ file_path: name });
      const first = (r.content as { type: string; text?: string }[])[0];
      expect(first?.text).toContain(`${reference?.[1]}×${reference?.[2]} pixels`);
    }
  });

  test("a WAV file is answered with its metadata only, matching Python's wave module", async () => {
    writeFileSync(join(dir, 'tone.wav'), wav(1.5, 22_050, 2, 16));
    const py = Bun.spawnSync(['python3', '-c', `import wave; w = wave.open(${JSON.stringify(join(dir, 'tone.wav'))}); print(w.getframerate(), w.getnchannels(), w.getsampwidth() * 8, '%.3f' % (w.getnframes() / w.getframerate()))`]);
    const [rate, channels, bits, seconds] = py.stdout.toString().trim().split(' ');
    const text = String((await read({ file_path: 'tone.wav' })).content);
    expect(text).toStartWith('tone.wav: ');
    expect(text).toContain('its content cannot be read, only its metadata');
    expect(text).toContain(`sample rate: ${rate} Hz`);
    expect(text).toContain(`channels: ${channels}`);
    expect(text).toContain(`bits per sample: ${bits}`);
    expect(text).toContain(`(${seconds} s)`);
  });

  test('a notebook is its cells in order, with sources and outputs; images named, not sent', async () => {
    writeFileSync(join(dir, 'analysis.ipynb'), JSON.stringify(NOTEBOOK));
    expect(String((await read({ file_path: 'analysis.ipynb' })).content)).toBe(
      [
        'Notebook analysis.ipynb: 5 cells, python',
        '--- cell 1: markdown ---\n# Analysis\nLoads the data.',
        "--- cell 2: code [1] ---\nimport math\nprint('hi')\nmath.pi\n[stdout]\nhi\n\n[result]\n3.141592653589793",
        '--- cell 3: code [2] ---\nplot()\n[display]\n<Figure size 640x480>\n[image/png output, not shown]',
        '--- cell 4: code [3] ---\n1/0\n[error] ZeroDivisionError: division by zero',
        '--- cell 5: code [ ] ---\n',
      ].join('\n\n'),
    );
    writeFileSync(join(dir, 'bad.ipynb'), '{"nbformat": 4}');
    expect((await read({ file_path: 'bad.ipynb' })).content).toBe('bad.ipynb is not a valid notebook: it has no "cells" list (nbformat 4 is supported).');
  });
});
