/** What the Write tool does once called: the file written (CRLF kept), after a read of what it overwrites, and its diff. */
import { displayPath, resolveToolPath } from '../../paths.ts';
import { ToolError, type ToolContext, type ToolResult } from '../../types.ts';
import { fileKind, readText, requireRead, writeText } from '../shared/file-io.ts';
import { plural } from '../shared/format.ts';
import { detectLineEnding, makePatch, toCrlf } from '../shared/patch.ts';
import { countLines, type WriteInput } from './schema.ts';

export async function executeWrite(input: WriteInput, ctx: ToolContext): Promise<ToolResult> {
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
    display: { type: 'diff', path: target.path, patch: diff.patch, hunks: diff.hunks, added: diff.added, removed: diff.removed, created },
  };
}
