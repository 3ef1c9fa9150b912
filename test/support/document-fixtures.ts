/** Small real documents built in the test: a PDF with text and an empty (scanned-like) page, PNG and GIF images, a WAV file, a notebook. */
import { deflateSync } from 'node:zlib';

/** A PDF whose pages hold the given lines (Helvetica); an empty list is a page with no text layer. */
export function pdfWithPages(pages: string[][]): Uint8Array {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) && objects.length;
  const catalog = add('');
  const pagesObj = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const kids: number[] = [];
  for (const lines of pages) {
    const escaped = lines.map((l) => l.replace(/([\\()])/g, '\\$1'));
    const ops = escaped.length === 0 ? '' : `BT /F1 12 Tf 72 720 Td 14 TL ${escaped.map((l, i) => `${i === 0 ? '' : 'T* '}(${l}) Tj`).join(' ')} ET`;
    const content = add(`<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`);
    kids.push(add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${content} 0 R >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}

function crc32(bytes: Uint8Array): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** An RGB PNG of the given size, every pixel grey. */
export function png(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, data.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(data, 8);
    view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  const v = new DataView(ihdr.buffer);
  v.setUint32(0, width);
  v.setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const raw = new Uint8Array(height * (1 + width * 3)).fill(128);
  for (let y = 0; y < height; y++) raw[y * (1 + width * 3)] = 0;
  const parts = [new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array())];
  return Buffer.concat(parts);
}

/** A GIF89a header and an empty image of the given size (enough for anything that reads dimensions). */
export function gif(width: number, height: number): Uint8Array {
  const b = Buffer.alloc(13 + 10 + 4 + 1);
  b.write('GIF89a', 0, 'latin1');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  b[10] = 0;
  b[13] = 0x2c; // image descriptor
  b.writeUInt16LE(width, 18);
  b.writeUInt16LE(height, 20);
  b[23] = 2; // LZW minimum code size
  b[24] = 0; // no data
  b[25] = 0x3b;
  return b;
}

/** A PCM WAV file: `seconds` of silence. */
export function wav(seconds: number, rate = 22_050, channels = 2, bits = 16): Uint8Array {
  const frames = Math.round(seconds * rate);
  const dataBytes = frames * channels * (bits / 8);
  const b = Buffer.alloc(44 + dataBytes);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(36 + dataBytes, 4);
  b.write('WAVEfmt ', 8, 'latin1');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(channels, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * channels * (bits / 8), 28);
  b.writeUInt16LE(channels * (bits / 8), 32);
  b.writeUInt16LE(bits, 34);
  b.write('data', 36, 'latin1');
  b.writeUInt32LE(dataBytes, 40);
  return b;
}

export const NOTEBOOK = {
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { display_name: 'Python 3', language: 'python', name: 'python3' }, language_info: { name: 'python' } },
  cells: [
    { cell_type: 'markdown', metadata: {}, source: ['# Analysis\n', 'Loads the data.'] },
    {
      cell_type: 'code',
      execution_count: 1,
      metadata: {},
      source: ['import math\n', "print('hi')\n", 'math.pi'],
      outputs: [
        { output_type: 'stream', name: 'stdout', text: ['hi\n'] },
        { output_type: 'execute_result', execution_count: 1, metadata: {}, data: { 'text/plain': ['3.141592653589793'] } },
      ],
    },
    { cell_type: 'code', execution_count: 2, metadata: {}, source: 'plot()', outputs: [{ output_type: 'display_data', metadata: {}, data: { 'image/png': 'iVBORw0KGgo=', 'text/plain': ['<Figure size 640x480>'] } }] },
    { cell_type: 'code', execution_count: 3, metadata: {}, source: '1/0', outputs: [{ output_type: 'error', ename: 'ZeroDivisionError', evalue: 'division by zero', traceback: [] }] },
    { cell_type: 'code', execution_count: null, metadata: {}, source: '', outputs: [] },
  ],
};
