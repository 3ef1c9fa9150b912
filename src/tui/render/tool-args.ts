/**
 * How a tool call is named on its card: `Bash(npm test)`, `Read(src/app.ts)`.
 * The arguments are read from the input while it still streams, so the path
 * or the command shows before the call is complete.
 */
import { previewPartialJson } from '../../agent/index.ts';
import type { ToolCallView } from '../state/types.ts';
import { isRecord } from '../../util/index.ts';

const DISPLAY_NAMES: Record<string, string> = {
  LS: 'List',
  TodoWrite: 'Update Todos',
  WebFetch: 'Fetch',
};

export function displayName(tool: string): string {
  return DISPLAY_NAMES[tool] ?? tool.replace(/(^|_)([a-z])/g, (_, __: string, ch: string) => ch.toUpperCase());
}


/** The input fields known so far: the parsed input once complete, else what the partial JSON already settles. */
export function knownInput(call: Pick<ToolCallView, 'input' | 'json'>): Record<string, unknown> {
  if (call.input !== undefined) return isRecord(call.input) ? call.input : {};
  return call.json ? previewPartialJson(call.json) : {};
}

export function relativePath(path: string, cwd: string): string {
  if (path === cwd) return '.';
  return path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** One line naming what the call acts on. */
export function argumentSummary(name: string, input: Record<string, unknown>, cwd: string): string {
  switch (name) {
    case 'Bash':
      return (str(input.command) ?? '').split('\n')[0] ?? '';
    case 'Read':
    case 'Write':
    case 'Edit': {
      const p = str(input.file_path);
      return p ? relativePath(p, cwd) : '';
    }
    case 'Grep': {
      const pattern = str(input.pattern);
      const path = str(input.path);
      return pattern === undefined ? '' : `"${pattern}"${path ? ` in ${relativePath(path, cwd)}` : ''}`;
    }
    case 'Glob':
      return str(input.pattern) ?? '';
    case 'LS':
      return relativePath(str(input.path) ?? '.', cwd);
    case 'TodoWrite':
      return '';
    default: {
      // Unknown tools (WASM, MCP): the first few scalar fields.
      return Object.entries(input)
        .filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
        .slice(0, 2)
        .map(([k, v]) => `${k}: ${String(v).split('\n')[0]}`)
        .join(', ');
    }
  }
}
