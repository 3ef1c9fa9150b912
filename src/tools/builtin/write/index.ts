/** The Write tool: creates or overwrites a file. */
import { z } from 'zod';
import { displayPath, intentPath, resolveToolPath } from '../../paths.ts';
import { defineTool, ToolError, type ToolResult } from '../../types.ts';
import { fileKind, readText, requireRead, writeText } from '../shared/file-io.ts';
import { plural } from '../shared/format.ts';
import { detectLineEnding, makePatch, toCrlf } from '../shared/patch.ts';
import description from './description.md' with { type: 'text' };

const PREVIEW_CHARS = 4000;

const inputSchema = z.lazy(() =>
  z.strictObject({
    file_path: z.string().describe('The file to write: absolute, or relative to the working folder.'),
    content: z.string().describe('The complete new content of the file.'),
  }),
);

function countLines(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

export const writeTool = defineTool({
  name: 'Write',
  description,
  inputSchema,
  effect: 'write',
  intent(input, ctx) {
    const path = intentPath(ctx, input.file_path);
    const preview =
      input.content.length > PREVIEW_CHARS ? `${input.content.slice(0, PREVIEW_CHARS)}\n…` : input.content;
    return {
      ruleName: 'Edit',
      subject: path,
      paths: [{ path, access: 'write' }],
      summary: `Write ${displayPath(ctx, path)} (${plural(countLines(input.content), 'line')})`,
      preview: { type: 'text', text: preview },
    };
  },
  async execute(input, ctx): Promise<ToolResult> {
    const target = resolveToolPath(ctx, input.file_path, 'write');
    const shown = displayPath(ctx, target.path);
    const kind = fileKind(target.realPath);
    if (kind === 'folder') throw new ToolError(`${shown} is a folder; give a file path.`);
    const created = kind === 'missing';
    let before = '';
    let content = input.content;
    if (!created) {
      requireRead(ctx.files.wasRead(target.realPath), shown, 'overwrite');
      before = readText(target.realPath, shown);
      // Keep a CRLF file CRLF: models write `\n` whatever the file uses.
      if (detectLineEnding(before) === '\r\n' && !content.includes('\r\n')) content = toCrlf(content);
    }
    writeText(target.realPath, shown, content);
    ctx.files.markRead(target.realPath);
    const diff = makePatch(shown, before, content);
    const text = created
      ? `Created ${shown} (${plural(countLines(content), 'line')}).`
      : `Overwrote ${shown} (+${diff.added} -${diff.removed} lines).`;
    return {
      content: text,
      display: { type: 'diff', path: target.path, patch: diff.patch, added: diff.added, removed: diff.removed, created },
    };
  },
});
