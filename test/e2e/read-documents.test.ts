/** Read's documents inside the compiled binary (pdf.js, music-metadata and image-size embedded and loaded on first use). */
import { expect, test } from 'bun:test';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pdfWithPages, png, wav } from '../support/document-fixtures.ts';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { makeSandbox, runMoat } from '../support/run-moat.ts';

let server: FakeAnthropic;
serveFakeAnthropic((s) => (server = s));

test('dist/moat reads a PDF page by page, an image with its size, a WAV as metadata', async () => {
  const sb = makeSandbox(server.url);
  try {
    writeFileSync(join(sb.cwd, 'doc.pdf'), pdfWithPages([['Binary check page one'], []]));
    writeFileSync(join(sb.cwd, 'a.wav'), wav(0.5));
    writeFileSync(join(sb.cwd, 'p.png'), png(8, 6));
    server.script(
      reply().toolUse('Read', { file_path: 'doc.pdf' }, { id: 'toolu_1' }).toolUse('Read', { file_path: 'a.wav' }, { id: 'toolu_2' }).toolUse('Read', { file_path: 'p.png' }, { id: 'toolu_3' }).stop('tool_use'),
      reply().text('done'),
    );
    const r = await runMoat(['-p', 'read them'], { cwd: sb.cwd, env: sb.env });
    expect(r).toMatchObject({ code: 0, stdout: 'done\n', stderr: '' });
    const sent = JSON.stringify(server.requests.at(-1)?.body);
    expect(sent).toContain('--- page 1 ---\\nBinary check page one');
    expect(sent).toContain('--- page 2 ---\\n(no text layer on this page');
    expect(sent).toContain('sample rate: 22050 Hz');
    expect(sent).toContain('8×6 pixels');
  } finally {
    rmSync(dirname(sb.cwd), { recursive: true, force: true });
  }
}, 30_000);
