/** What the Read tool does once called: the file read, sniffed and numbered, or an image, PDF, notebook or media summary. */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { displayPath, resolveToolPath } from '../../paths.ts';
import { ToolError, type ToolContext, type ToolResult } from '../../types.ts';
import { formatSize } from '../shared/format.ts';
import { readLineWindow } from '../shared/line-window.ts';
import { BINARY_SNIFF_BYTES, looksBinary, sniffImage } from '../shared/sniff.ts';
import { errnoCode } from '../../../util/index.ts';
import { imageDimensions, isMedia, isNotebook, isPdf, mediaMetadata, readNotebook, readPdf } from './documents.ts';
import { DEFAULT_READ_LIMIT, type ReadInput } from './schema.ts';

/** PDFs and notebooks are read whole to be parsed; past this they are refused. */
const MAX_DOCUMENT_BYTES = 64 * 1024 * 1024;

function readAll(fd: number, size: number): Buffer {
  const data = Buffer.alloc(size);
  let got = 0;
  while (got < size) {
    const n = readSync(fd, data, got, size - got, got);
    if (n === 0) break;
    got += n;
  }
  return data.subarray(0, got);
}

const MAX_LINE_CHARS = 2000;
/** Whole-file reads stop here; larger files need offset/limit (keeps one call within the context budget). */
const MAX_WHOLE_FILE_BYTES = 256 * 1024;
/** The API takes images up to 5 MB of base64, i.e. 3.75 MB of raw bytes. */
const MAX_IMAGE_BYTES = Math.floor((5 * 1024 * 1024 * 3) / 4);
/** Even with offset/limit, one result stops growing past this many characters. */
const MAX_OUTPUT_CHARS = 256 * 1024;

function openForRead(realPath: string, shown: string, cwd: string): number {
  try {
    return openSync(realPath, 'r');
  } catch (e) {
    const code = errnoCode(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new ToolError(`File does not exist: ${shown} (working folder: ${cwd}). Check the path, or use glob to find the file.`);
    }
    if (code === 'EACCES') throw new ToolError(`Permission denied reading ${shown}.`);
    throw e;
  }
}

function numbered(lines: readonly string[], first: number): { text: string; shown: number } {
  const out: string[] = [];
  let chars = 0;
  for (let i = 0; i < lines.length; i++) {
    const row = `${String(first + i).padStart(6)}\t${lines[i] ?? ''}`;
    if (chars + row.length > MAX_OUTPUT_CHARS && out.length > 0) break;
    out.push(row);
    chars += row.length + 1;
  }
  return { text: out.join('\n'), shown: out.length };
}

export async function executeRead(input: ReadInput, ctx: ToolContext): Promise<ToolResult> {
  const target = resolveToolPath(ctx, input.file_path, 'read');
  const shown = displayPath(ctx, target.path);
  const fd = openForRead(target.realPath, shown, ctx.cwd);
  try {
    const stat = fstatSync(fd);
    if (stat.isDirectory()) throw new ToolError(`${shown} is a folder, not a file. Use ls to list it, or glob to find files in it.`);
    const head = Buffer.alloc(Math.min(stat.size, BINARY_SNIFF_BYTES));
    const headLen = head.length > 0 ? readSync(fd, head, 0, head.length, 0) : 0;
    const headBytes = head.subarray(0, headLen);

    const image = sniffImage(headBytes);
    if (image !== undefined) {
      if (stat.size > MAX_IMAGE_BYTES) {
        throw new ToolError(`${shown} is a ${formatSize(stat.size)} image; images over ${formatSize(MAX_IMAGE_BYTES)} cannot be sent to the model. Resize it first (e.g. with a command).`);
      }
      const data = readAll(fd, stat.size);
      ctx.files.markRead(target.realPath);
      const size = await imageDimensions(data);
      return {
        content: [
          { type: 'text', text: `Image ${shown} (${image.slice('image/'.length)}, ${size === undefined ? '' : `${size} pixels, `}${formatSize(data.length)}):` },
          { type: 'image', mediaType: image, data: data.toString('base64') },
        ],
        display: { type: 'file_read', path: target.path, startLine: 1, lines: 0, totalLines: 0, image: true },
      };
    }
    if (input.pages !== undefined && !isPdf(headBytes)) throw new ToolError(`pages is for PDF files; ${shown} is not one. Use offset and limit for text.`);
    const document = isPdf(headBytes) ? 'pdf' : isNotebook(target.path) && !looksBinary(headBytes) ? 'notebook' : undefined;
    if (document !== undefined) {
      if (stat.size > MAX_DOCUMENT_BYTES) throw new ToolError(`${shown} is ${formatSize(stat.size)}, over the ${formatSize(MAX_DOCUMENT_BYTES)} limit for documents.`);
      const bytes = readAll(fd, stat.size);
      const text = document === 'pdf' ? await readPdf(bytes, shown, input.pages) : readNotebook(bytes.toString('utf8'), shown);
      ctx.files.markRead(target.realPath);
      return { content: text, display: { type: 'file_read', path: target.path, startLine: 1, lines: text.split('\n').length, totalLines: text.split('\n').length } };
    }
    if (isMedia(target.path, headBytes)) {
      return { content: await mediaMetadata(target.realPath, shown, stat.size), display: { type: 'file_read', path: target.path, startLine: 1, lines: 0, totalLines: 0 } };
    }
    if (looksBinary(headBytes)) {
      throw new ToolError(`${shown} is a binary file (${formatSize(stat.size)}); read only reads text and images. Use a command (e.g. file, xxd, strings) to inspect it.`);
    }
    if (stat.size > MAX_WHOLE_FILE_BYTES && input.offset === undefined && input.limit === undefined) {
      throw new ToolError(`${shown} is ${formatSize(stat.size)}, over the ${formatSize(MAX_WHOLE_FILE_BYTES)} limit for reading a whole file. Read it in parts with offset and limit (e.g. offset=1, limit=${DEFAULT_READ_LIMIT}), or use grep to find the lines you need.`);
    }

    const start = input.offset ?? 1;
    // Beyond this the output cap cuts anyway; the clamp bounds memory for huge limits.
    const limit = Math.min(input.limit ?? DEFAULT_READ_LIMIT, 50_000);
    const window = readLineWindow(fd, start, limit, MAX_LINE_CHARS);
    ctx.files.markRead(target.realPath);
    const display = (lines: number) =>
      ({ type: 'file_read', path: target.path, startLine: start, lines, totalLines: window.totalLines }) as const;

    if (window.totalLines === 0) return { content: `(${shown} is empty.)`, display: display(0) };
    if (start > window.totalLines) {
      throw new ToolError(`${shown} has ${window.totalLines} lines; offset ${start} is past the end. Use an offset between 1 and ${window.totalLines}.`);
    }
    const { text, shown: count } = numbered(window.lines, start);
    const last = start + count - 1;
    const notes: string[] = [];
    if (last < window.totalLines) {
      notes.push(`(Showing lines ${start}-${last} of ${window.totalLines}. To read more, call read with offset=${last + 1}.)`);
    }
    if (window.cutLines > 0) notes.push(`(Lines longer than ${MAX_LINE_CHARS} characters were cut.)`);
    return {
      content: notes.length > 0 ? `${text}\n\n${notes.join('\n')}` : text,
      display: display(count),
    };
  } finally {
    closeSync(fd);
  }
}
