/** A tool call's structured result, shaped like Claude Code's: stream-json's `tool_use_result` and PostToolUse hooks' `tool_response`. */
import type { ToolDisplay } from '../tools/index.ts';

/** What the result builder reads of a finished call: the text the model saw, whether it failed, the tool's display. */
export interface FinishedCall {
  content: string;
  isError: boolean;
  display?: ToolDisplay | undefined;
}

/**
 * What scripts read besides the text the model saw: the file a read
 * returned, a command's output, an edit's patch. Errors are `"Error: …"`
 * strings, as Claude Code writes them. Moat's bash merges stdout and
 * stderr, so `stderr` is always empty (docs/claude-code-compat.md).
 */
export function toolUseResult(f: FinishedCall, input: unknown): unknown {
  if (f.isError) return `Error: ${f.content}`;
  const d = f.display;
  if (d === undefined) return f.content;
  const given = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  // The path as the model wrote it, as Claude Code reports it; moat's absolute path otherwise.
  const filePath = typeof given['file_path'] === 'string' ? given['file_path'] : 'path' in d ? d.path : '';
  switch (d.type) {
    case 'file_read':
      return {
        type: d.image ? 'image' : 'text',
        file: { filePath, content: f.content, numLines: d.lines, startLine: d.startLine, totalLines: d.totalLines },
      };
    case 'command':
      return { stdout: d.output, stderr: '', interrupted: d.exitCode === null, isImage: false, exitCode: d.exitCode };
    case 'diff':
      return {
        type: d.created ? 'create' : 'update',
        filePath,
        ...(typeof given['old_string'] === 'string' ? { oldString: given['old_string'] } : {}),
        ...(typeof given['new_string'] === 'string' ? { newString: given['new_string'] } : {}),
        ...(typeof given['content'] === 'string' ? { content: given['content'] } : {}),
        ...(given['old_string'] !== undefined ? { replaceAll: given['replace_all'] === true } : {}),
        structuredPatch: d.hunks,
        added: d.added,
        removed: d.removed,
      };
    case 'todos':
      return { newTodos: d.items };
    case 'matches':
      return { numMatches: d.count, truncated: d.truncated, content: f.content };
    case 'listing':
      return { path: d.path, entries: d.entries, content: f.content };
    case 'text':
      return d.text;
  }
}
