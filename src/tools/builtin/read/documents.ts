/**
 * Read's documents: PDF text page by page (unpdf, the serverless build of
 * Mozilla's pdf.js), Jupyter notebooks as cells with their outputs, image
 * dimensions (image-size), and audio and video files as their metadata only
 * (music-metadata). Each library is imported on first use: most runs read
 * none of these.
 */
import { extname } from 'node:path';
import { ToolError } from '../../types.ts';
import { formatSize } from '../shared/format.ts';

const PDF_MAGIC = '%PDF-';
/** Pages read at once without `pages`; a longer document says how to ask for the rest. */
export const MAX_PDF_PAGES = 20;
const MAX_NOTEBOOK_OUTPUT_CHARS = 4000;

export function isPdf(head: Uint8Array): boolean {
  return new TextDecoder('latin1').decode(head.subarray(0, 1024)).includes(PDF_MAGIC);
}

export function isNotebook(path: string): boolean {
  return extname(path).toLowerCase() === '.ipynb';
}

const MEDIA_EXTENSIONS = new Set(['.mp3', '.wav', '.flac', '.ogg', '.oga', '.opus', '.m4a', '.aac', '.aiff', '.aif', '.wma', '.mp4', '.m4v', '.mov', '.webm', '.mkv', '.avi', '.wmv']);

export function isMedia(path: string, head: Uint8Array): boolean {
  if (MEDIA_EXTENSIONS.has(extname(path).toLowerCase())) return true;
  const s = new TextDecoder('latin1').decode(head.subarray(0, 16));
  return (s.startsWith('RIFF') && (s.slice(8, 12) === 'WAVE' || s.slice(8, 12) === 'AVI ')) || s.startsWith('ID3') || s.startsWith('fLaC') || s.startsWith('OggS') || s.slice(4, 8) === 'ftyp';
}

/** `"3"`, `"1-5"`, `"2,4-6"` → sorted 1-based page numbers within `count`. */
export function parsePages(spec: string, count: number): number[] {
  const out = new Set<number>();
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(\d+)(?:\s*-\s*(\d+)?)?$/.exec(part);
    if (m === null) throw new ToolError(`pages "${spec}" is not a page list: use "3", "1-5" or "2,4-6".`);
    const from = Number(m[1]);
    const to = m[2] !== undefined ? Number(m[2]) : part.includes('-') ? count : from;
    if (from < 1 || to < from) throw new ToolError(`pages "${part}" is not a range of pages (they count from 1).`);
    if (from > count) throw new ToolError(`The document has ${count} page${count === 1 ? '' : 's'}; page ${from} is past the end.`);
    for (let p = from; p <= Math.min(to, count); p++) out.add(p);
  }
  if (out.size === 0) throw new ToolError('pages is empty: name at least one page, e.g. "1".');
  return [...out].sort((a, b) => a - b);
}

/** PDF text per page; a page without a text layer (a scan) says so rather than reading as empty. */
export async function readPdf(bytes: Uint8Array, shown: string, pages: string | undefined): Promise<string> {
  // Loaded on first use: with the other readers' libraries (unpdf, image-size, music-metadata, node-html-markdown, web-tree-sitter) up front, -p read-then-answer's peak RSS is 58.7 MB, not 54.8 (bound 55 MB; startup bench, n=20).
  const { getDocumentProxy } = await import('unpdf');
  let doc;
  try {
    doc = await getDocumentProxy(new Uint8Array(bytes));
  } catch (e) {
    throw new ToolError(`${shown} could not be read as a PDF: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    const count = doc.numPages;
    const wanted = pages === undefined ? Array.from({ length: Math.min(count, MAX_PDF_PAGES) }, (_, i) => i + 1) : parsePages(pages, count);
    const parts: string[] = [`PDF ${shown}: ${count} page${count === 1 ? '' : 's'}, ${formatSize(bytes.length)}`];
    for (const n of wanted) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      // Items carry their own line ends (hasEOL); joining keeps the page's reading order.
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str + (item.hasEOL ? '\n' : '');
      }
      text = text.replace(/[ \t]+\n/g, '\n').trim();
      parts.push(`--- page ${n} ---\n${text === '' ? '(no text layer on this page: it is probably a scanned image; OCR it with a command if you need its words)' : text}`);
    }
    if (pages === undefined && count > MAX_PDF_PAGES) parts.push(`(Showing pages 1-${MAX_PDF_PAGES} of ${count}. Read more with pages, e.g. pages="${MAX_PDF_PAGES + 1}-${Math.min(count, 2 * MAX_PDF_PAGES)}".)`);
    return parts.join('\n\n');
  } finally {
    await doc.loadingTask.destroy();
  }
}

interface NotebookCell {
  cell_type?: string;
  source?: string | string[];
  execution_count?: number | null;
  outputs?: {
    output_type?: string;
    text?: string | string[];
    name?: string;
    data?: Record<string, string | string[]>;
    ename?: string;
    evalue?: string;
  }[];
}

const joined = (s: string | string[] | undefined): string => (Array.isArray(s) ? s.join('') : (s ?? ''));

function capOutput(text: string): string {
  return text.length <= MAX_NOTEBOOK_OUTPUT_CHARS ? text : `${text.slice(0, MAX_NOTEBOOK_OUTPUT_CHARS)}\n… (${text.length - MAX_NOTEBOOK_OUTPUT_CHARS} more characters of output)`;
}

/** A notebook as its cells in order: each cell's kind, execution count, source, and outputs (text; images named, not sent). */
export function readNotebook(text: string, shown: string): string {
  let nb: { cells?: NotebookCell[]; metadata?: { kernelspec?: { display_name?: string; language?: string }; language_info?: { name?: string } } };
  try {
    nb = JSON.parse(text) as typeof nb;
  } catch (e) {
    throw new ToolError(`${shown} is not a valid notebook (not JSON: ${e instanceof Error ? e.message : String(e)}).`);
  }
  if (!Array.isArray(nb.cells)) throw new ToolError(`${shown} is not a valid notebook: it has no "cells" list (nbformat 4 is supported).`);
  const language = nb.metadata?.language_info?.name ?? nb.metadata?.kernelspec?.language ?? 'code';
  const out = [`Notebook ${shown}: ${nb.cells.length} cell${nb.cells.length === 1 ? '' : 's'}, ${language}`];
  nb.cells.forEach((cell, i) => {
    const kind = cell.cell_type ?? 'unknown';
    const count = kind === 'code' ? ` [${cell.execution_count ?? ' '}]` : '';
    const lines = [`--- cell ${i + 1}: ${kind}${count} ---`, joined(cell.source)];
    for (const o of cell.outputs ?? []) {
      if (o.output_type === 'stream') lines.push(`[${o.name ?? 'output'}]\n${capOutput(joined(o.text))}`);
      else if (o.output_type === 'error') lines.push(`[error] ${o.ename ?? 'Error'}: ${o.evalue ?? ''}`);
      else if (o.data !== undefined) {
        const plain = o.data['text/plain'];
        const images = Object.keys(o.data).filter((k) => k.startsWith('image/'));
        if (plain !== undefined) lines.push(`[${o.output_type === 'execute_result' ? 'result' : 'display'}]\n${capOutput(joined(plain))}`);
        for (const k of images) lines.push(`[${k} output, not shown]`);
        if (plain === undefined && images.length === 0) lines.push(`[${Object.keys(o.data).join(', ')} output]`);
      }
    }
    out.push(lines.join('\n'));
  });
  return out.join('\n\n');
}

/** `1920×1080` for a PNG, JPEG, GIF or WebP; undefined when the header does not say. */
export async function imageDimensions(bytes: Uint8Array): Promise<string | undefined> {
  // Loaded on first use: with the other readers' libraries (unpdf, image-size, music-metadata, node-html-markdown, web-tree-sitter) up front, -p read-then-answer's peak RSS is 58.7 MB, not 54.8 (bound 55 MB; startup bench, n=20).
  const { imageSize } = await import('image-size');
  try {
    const d = imageSize(bytes);
    return d.width !== undefined && d.height !== undefined ? `${d.width}×${d.height}` : undefined;
  } catch {
    return undefined;
  }
}

function duration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s.toFixed(2).padStart(5, '0')}` : `${m}:${s.toFixed(2).padStart(5, '0')}`;
}

/** An audio or video file's metadata (container, codec, duration, rate, channels, tags); never its content. */
export async function mediaMetadata(realPath: string, shown: string, size: number): Promise<string> {
  // Loaded on first use: with the other readers' libraries (unpdf, image-size, music-metadata, node-html-markdown, web-tree-sitter) up front, -p read-then-answer's peak RSS is 58.7 MB, not 54.8 (bound 55 MB; startup bench, n=20).
  const { parseFile } = await import('music-metadata');
  let meta;
  try {
    // From the file, not a buffer: a video may be gigabytes, and only its headers (and for some formats its frames' headers) are read.
    meta = await parseFile(realPath, { duration: true, skipCovers: true });
  } catch (e) {
    return `${shown}: a media file of ${formatSize(size)} whose metadata could not be read (${e instanceof Error ? e.message : String(e)}). Its content is not readable as text; inspect it with a command (ffprobe, mediainfo) if one is installed.`;
  }
  const f = meta.format;
  const rows: [string, string | number | undefined][] = [
    ['container', f.container],
    ['codec', f.codec],
    ['duration', f.duration === undefined ? undefined : `${duration(f.duration)} (${f.duration.toFixed(3)} s)`],
    ['sample rate', f.sampleRate === undefined ? undefined : `${f.sampleRate} Hz`],
    ['channels', f.numberOfChannels],
    ['bits per sample', f.bitsPerSample],
    ['bitrate', f.bitrate === undefined ? undefined : `${Math.round(f.bitrate / 1000)} kb/s`],
    ['lossless', f.lossless === undefined ? undefined : String(f.lossless)],
    ['title', meta.common.title],
    ['artist', meta.common.artist],
    ['album', meta.common.album],
  ];
  const lines = rows.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `${k}: ${v}`);
  return `${shown}: ${formatSize(size)} of audio/video; its content cannot be read, only its metadata:\n${lines.join('\n')}`;
}
