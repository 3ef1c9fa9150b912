/** What the Edit tool does once called: the exact-text replacement, written back with the file's line endings, and its diff. */
import { readFileSync } from 'node:fs';
import { displayPath, intentPath, resolveToolPath } from '../../paths.ts';
import { ToolError, type CallIntent, type IntentContext, type ToolContext, type ToolResult } from '../../types.ts';
import { fileKind, readText, requireRead, writeText } from '../shared/file-io.ts';
import { plural } from '../shared/format.ts';
import { detectLineEnding, makePatch, toCrlf } from '../shared/patch.ts';
import type { EditInput } from './schema.ts';

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) count++;
  return count;
}

/** Text copied from read output still carrying its `     12\t` prefixes: a common, fixable mistake. */
const LINE_NUMBER_PREFIX = /^ *\d+\t/m;

/** The file after the edit, or a ToolError saying why the edit does not apply. */
function applyEdit(before: string, input: EditInput, shown: string): { after: string; matches: number } {
  let oldString = input.old_string;
  let newString = input.new_string;
  // The model sees CRLF files through read with the CRs dropped and sends `\n`: match and write CRLF.
  if (detectLineEnding(before) === '\r\n') {
    if (!before.includes(oldString)) oldString = toCrlf(oldString);
    if (!newString.includes('\r\n')) newString = toCrlf(newString);
  }
  const matches = countOccurrences(before, oldString);
  if (matches === 0) {
    const hint = LINE_NUMBER_PREFIX.test(input.old_string)
      ? ' It looks like it contains line-number prefixes from read output; remove them.'
      : ' It must match exactly, including whitespace and indentation; read the file again and copy the text.';
    throw new ToolError(`old_string was not found in ${shown}.${hint}`);
  }
  if (matches > 1 && input.replace_all !== true) {
    throw new ToolError(`old_string occurs ${matches} times in ${shown}. Include more surrounding lines to make it unique, or set replace_all to true to replace every occurrence.`);
  }
  if (input.replace_all === true) return { after: before.split(oldString).join(newString), matches };
  // Slicing, not String.replace: `$&` and friends in new_string must stay literal.
  const at = before.indexOf(oldString);
  return { after: before.slice(0, at) + newString + before.slice(at + oldString.length), matches };
}

/**
 * The diff a person approves: the whole file before and after, with its real
 * line numbers; the snippets' own diff when the file cannot be read or the
 * edit does not apply (the call itself will then say why).
 */
export async function editPreview(input: EditInput, ctx: IntentContext): Promise<CallIntent['preview']> {
  const path = intentPath(ctx, input.file_path);
  const shown = displayPath(ctx, path);
  let diff;
  try {
    const before = readFileSync(path, 'utf8');
    diff = makePatch(shown, before, applyEdit(before, input, shown).after);
  } catch {
    diff = makePatch(shown, input.old_string, input.new_string);
  }
  return { type: 'diff', path, patch: diff.patch, hunks: diff.hunks, added: diff.added, removed: diff.removed, created: false };
}

export async function executeEdit(input: EditInput, ctx: ToolContext): Promise<ToolResult> {
  const target = resolveToolPath(ctx, input.file_path, 'write');
  const shown = displayPath(ctx, target.path);
  if (input.old_string === input.new_string) {
    throw new ToolError('old_string and new_string are the same, so there is nothing to change. Give the new text in new_string.');
  }
  if (input.old_string === '') {
    throw new ToolError('old_string is empty. Give the exact text to replace (with enough surrounding lines to be unique); to create a file, use write.');
  }
  const kind = fileKind(target.realPath);
  if (kind === 'missing') throw new ToolError(`File does not exist: ${shown}. Check the path, or use write to create a new file.`);
  if (kind === 'folder') throw new ToolError(`${shown} is a folder; give a file path.`);
  requireRead(ctx.files.wasRead(target.realPath), shown, 'edit');

  const before = readText(target.realPath, shown);
  const { after, matches } = applyEdit(before, input, shown);
  writeText(target.realPath, shown, after);
  ctx.files.markRead(target.realPath);
  const diff = makePatch(shown, before, after);
  const replaced = input.replace_all === true ? ` (${plural(matches, 'occurrence')} replaced)` : '';
  return {
    content: `Edited ${shown}${replaced}: +${diff.added} -${diff.removed} lines.`,
    display: { type: 'diff', path: target.path, patch: diff.patch, hunks: diff.hunks, added: diff.added, removed: diff.removed, created: false },
  };
}
