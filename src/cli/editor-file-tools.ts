/**
 * Read, Edit and Write through an editor's own file access (ACP's `fs/*`): unsaved buffers are what
 * the model reads, and edits land in the editor. Same names, inputs, intents and permission checks as
 * the built-ins; only where the text comes from and goes to changes.
 */
import type { ClientFiles } from '../acp/index.ts';
import { displayPath, makePatch, resolveToolPath, ToolError, type AnyTool, type ToolContext, type ToolResult } from '../tools/index.ts';
import { errorMessage } from '../util/index.ts';

const DEFAULT_READ_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;

/** The tool's input object: its schema validated it before `execute` runs. */
type Input = Record<string, unknown>;

function str(input: Input, key: string): string | undefined {
  const v = input[key];
  return typeof v === 'string' ? v : undefined;
}

function num(input: Input, key: string): number | undefined {
  const v = input[key];
  return typeof v === 'number' ? v : undefined;
}

/** The buffer's text, or undefined when the editor cannot give it (not a text file, not there): the built-in reads it then. */
async function editorText(files: ClientFiles, path: string): Promise<string | undefined> {
  try {
    return await files.read(path);
  } catch {
    return undefined;
  }
}

/** The text as Read numbers it: `cat -n` style, from `offset`, at most `limit` lines. */
function numberedWindow(text: string, shown: string, offset: number, limit: number): string {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length === 0) return `(${shown} is empty.)`;
  if (offset > lines.length) throw new ToolError(`${shown} has ${lines.length} lines; offset ${offset} is past the end. Use an offset between 1 and ${lines.length}.`);
  const window = lines.slice(offset - 1, offset - 1 + limit);
  const body = window.map((l, i) => `${String(offset + i).padStart(6)}\t${l.length > MAX_LINE_CHARS ? l.slice(0, MAX_LINE_CHARS) : l}`).join('\n');
  const last = offset + window.length - 1;
  return last < lines.length ? `${body}\n\n(Showing lines ${offset}-${last} of ${lines.length}. To read more, call read with offset=${last + 1}.)` : body;
}

function readThroughEditor(builtin: AnyTool, files: ClientFiles): AnyTool {
  return {
    ...builtin,
    execute: async (input: Input, ctx: ToolContext): Promise<ToolResult> => {
      const target = resolveToolPath(ctx, str(input, 'file_path') ?? '', 'read');
      const text = str(input, 'pages') === undefined ? await editorText(files, target.path) : undefined;
      // Images, PDFs, notebooks, and files the editor does not have: read as always.
      if (text === undefined || text.includes('\u0000')) return builtin.execute(input, ctx);
      const shown = displayPath(ctx, target.path);
      const offset = num(input, 'offset') ?? 1;
      const content = numberedWindow(text, shown, offset, Math.min(num(input, 'limit') ?? DEFAULT_READ_LIMIT, 50_000));
      ctx.files.markRead(target.realPath);
      const total = text.split('\n').length;
      return { content, display: { type: 'file_read', path: target.path, startLine: offset, lines: Math.max(0, Math.min(total - offset + 1, num(input, 'limit') ?? DEFAULT_READ_LIMIT)), totalLines: total } };
    },
  };
}

async function writeToEditor(files: ClientFiles, path: string, shown: string, text: string): Promise<void> {
  try {
    await files.write(path, text);
  } catch (e) {
    throw new ToolError(`The editor could not write ${shown}: ${errorMessage(e)}`);
  }
}

function editThroughEditor(builtin: AnyTool, files: ClientFiles): AnyTool {
  return {
    ...builtin,
    execute: async (input: Input, ctx: ToolContext): Promise<ToolResult> => {
      const target = resolveToolPath(ctx, str(input, 'file_path') ?? '', 'write');
      const before = await editorText(files, target.path);
      if (before === undefined) return builtin.execute(input, ctx);
      const shown = displayPath(ctx, target.path);
      const oldString = str(input, 'old_string') ?? '';
      const newString = str(input, 'new_string') ?? '';
      if (oldString === '' || oldString === newString) return builtin.execute(input, ctx);
      if (!ctx.files.wasRead(target.realPath)) throw new ToolError(`${shown} has not been read in this session. Read it with the Read tool first, then edit it.`);
      const count = before.split(oldString).length - 1;
      if (count === 0) throw new ToolError(`old_string was not found in ${shown}. It must match exactly, including whitespace and indentation; read the file again and copy the text.`);
      const all = input['replace_all'] === true;
      if (count > 1 && !all) throw new ToolError(`old_string occurs ${count} times in ${shown}. Include more surrounding lines to make it unique, or set replace_all to true to replace every occurrence.`);
      const at = before.indexOf(oldString);
      const after = all ? before.split(oldString).join(newString) : before.slice(0, at) + newString + before.slice(at + oldString.length);
      await writeToEditor(files, target.path, shown, after);
      ctx.files.markRead(target.realPath);
      const diff = makePatch(shown, before, after);
      return {
        content: `Edited ${shown}: +${diff.added} -${diff.removed} lines.`,
        display: { type: 'diff', path: target.path, patch: diff.patch, hunks: diff.hunks, added: diff.added, removed: diff.removed, created: false },
      };
    },
  };
}

function writeThroughEditor(builtin: AnyTool, files: ClientFiles): AnyTool {
  return {
    ...builtin,
    execute: async (input: Input, ctx: ToolContext): Promise<ToolResult> => {
      const target = resolveToolPath(ctx, str(input, 'file_path') ?? '', 'write');
      const shown = displayPath(ctx, target.path);
      const content = str(input, 'content') ?? '';
      const before = await editorText(files, target.path);
      if (before !== undefined && !ctx.files.wasRead(target.realPath)) {
        throw new ToolError(`${shown} has not been read in this session. Read it with the Read tool first, then overwrite it.`);
      }
      await writeToEditor(files, target.path, shown, content);
      ctx.files.markRead(target.realPath);
      const diff = makePatch(shown, before ?? '', content);
      return {
        content: before === undefined ? `Created ${shown}.` : `Overwrote ${shown} (+${diff.added} -${diff.removed} lines).`,
        display: { type: 'diff', path: target.path, patch: diff.patch, hunks: diff.hunks, added: diff.added, removed: diff.removed, created: before === undefined },
      };
    },
  };
}

/** The built-in tools with Read, Edit and Write going through the editor. */
export function editorFileTools(files: ClientFiles): (tools: AnyTool[]) => AnyTool[] {
  return (tools) =>
    tools.map((t) => {
      if (t.name === 'Read') return readThroughEditor(t, files);
      if (t.name === 'Edit') return editThroughEditor(t, files);
      if (t.name === 'Write') return writeThroughEditor(t, files);
      return t;
    });
}
