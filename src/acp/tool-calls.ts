/** How a moat tool call looks to an editor: its kind, title, file locations and content (diffs for edits). */
import { isAbsolute, resolve } from 'node:path';
import type { ToolCallContent, ToolCallLocation, ToolKind } from '@agentclientprotocol/sdk';
import type { SessionEvent } from '../protocol/index.ts';

type ToolDisplay = NonNullable<Extract<SessionEvent, { type: 'tool_finished' }>['display']>;

const KINDS: Record<string, ToolKind> = {
  Read: 'read',
  Edit: 'edit',
  Write: 'edit',
  MultiEdit: 'edit',
  NotebookEdit: 'edit',
  Bash: 'execute',
  Grep: 'search',
  Glob: 'search',
  LS: 'search',
  ToolSearch: 'search',
  WebFetch: 'fetch',
  WebSearch: 'fetch',
  HttpRequest: 'fetch',
  TodoWrite: 'think',
  task: 'think',
};

export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? 'other';
}

/** The input's field as a string, or undefined: the model's input is whatever it sent. */
function field(input: unknown, key: string): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const v = (input as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : undefined;
}

function numberField(input: unknown, key: string): number | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const v = (input as Record<string, unknown>)[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function absolute(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

/** One line an editor shows for the call: the command, the file, the pattern. */
export function toolTitle(name: string, input: unknown): string {
  const path = field(input, 'file_path') ?? field(input, 'path');
  switch (name) {
    case 'Bash':
      return field(input, 'command') ?? 'Bash';
    case 'Read':
    case 'Edit':
    case 'Write':
      return path === undefined ? name : `${name} ${path}`;
    case 'Grep':
    case 'Glob': {
      const pattern = field(input, 'pattern');
      return pattern === undefined ? name : `${name} ${pattern}${path === undefined ? '' : ` in ${path}`}`;
    }
    case 'WebFetch':
      return field(input, 'url') ?? name;
    default:
      return field(input, 'description') ?? name;
  }
}

/** Where the call works, so the editor can follow along: the file, and the line when the input names one. */
export function toolLocations(name: string, input: unknown, cwd: string): ToolCallLocation[] {
  const path = field(input, 'file_path') ?? (name === 'LS' || name === 'Grep' || name === 'Glob' ? field(input, 'path') : undefined);
  if (path === undefined) return [];
  const line = name === 'Read' ? numberField(input, 'offset') : undefined;
  return [{ path: absolute(cwd, path), ...(line === undefined ? {} : { line }) }];
}

/** An edit's change as a diff the editor renders, from the input (what the model asked for). */
export function inputDiff(name: string, input: unknown, cwd: string): ToolCallContent[] {
  const path = field(input, 'file_path');
  if (path === undefined) return [];
  if (name === 'Edit') {
    const oldText = field(input, 'old_string');
    const newText = field(input, 'new_string');
    if (oldText === undefined || newText === undefined) return [];
    return [{ type: 'diff', path: absolute(cwd, path), oldText, newText }];
  }
  if (name === 'Write') {
    const content = field(input, 'content');
    return content === undefined ? [] : [{ type: 'diff', path: absolute(cwd, path), oldText: null, newText: content }];
  }
  return [];
}

/** The old and new text of a diff display's hunks: what changed, with its context lines. */
function diffTexts(display: Extract<ToolDisplay, { type: 'diff' }>): { oldText: string; newText: string } {
  const before: string[] = [];
  const after: string[] = [];
  for (const hunk of display.hunks) {
    for (const line of hunk.lines) {
      const mark = line[0];
      const text = line.slice(1);
      if (mark === '-' || mark === ' ') before.push(text);
      if (mark === '+' || mark === ' ') after.push(text);
    }
  }
  return { oldText: before.join('\n'), newText: after.join('\n') };
}

function text(t: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text: t } };
}

/** What a running or finished call shows: a diff for edits, a command's output, else the result's text. */
export function displayContent(display: ToolDisplay | undefined, result: string | undefined): ToolCallContent[] {
  if (display?.type === 'diff') {
    const { oldText, newText } = diffTexts(display);
    return [{ type: 'diff', path: display.path, oldText: display.created ? null : oldText, newText }];
  }
  if (display?.type === 'command') return display.output === '' ? [] : [text(`\`\`\`\n${display.output}\n\`\`\``)];
  return result === undefined || result === '' ? [] : [text(result)];
}
