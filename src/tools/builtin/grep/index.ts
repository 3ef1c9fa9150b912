/** The Grep tool: regex search over files, like ripgrep (the search itself is in execute.ts). */
import { z } from 'zod';
import { once } from '../../../util/index.ts';
import { displayPath, intentPath } from '../../paths.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import description from './description.md' with { type: 'text' };

const contextLines = (what: string) => z.number().int().min(0).max(100).optional().describe(what);

const inputSchema = once(() =>
  z.strictObject({
    pattern: z.string().min(1).describe('The regular expression to search for in file contents (JavaScript RegExp syntax).'),
    path: z
      .string()
      .optional()
      .describe('File or folder to search: absolute, or relative to the working folder. Defaults to the working folder.'),
    glob: z
      .string()
      .optional()
      .describe('Only search files matching this glob, e.g. "*.js" or "src/**/*.{ts,tsx}"; prefix with ! to exclude.'),
    type: z.string().optional().describe('Only search files of this type, e.g. ts, js, py, rust, go, java, md. More efficient than glob for standard types.'),
    output_mode: z
      .enum(['files_with_matches', 'content', 'count'])
      .optional()
      .describe('"files_with_matches" (default) lists matching files; "content" shows matching lines; "count" shows matches per file.'),
    '-i': z.boolean().optional().describe('Case-insensitive search.'),
    '-n': z.boolean().optional().describe('Show line numbers (content mode only; default true).'),
    '-A': contextLines('Lines to show after each match (content mode only).'),
    '-B': contextLines('Lines to show before each match (content mode only).'),
    '-C': contextLines('Lines to show before and after each match (content mode only).'),
    head_limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('Show only the first N lines (content mode) or entries (other modes).'),
    multiline: z
      .boolean()
      .optional()
      .describe('Let patterns span lines: `.` matches newlines too. Default false (each line is matched on its own).'),
  }),
);

export type GrepInput = z.infer<ReturnType<typeof inputSchema>>;
export type GrepMode = NonNullable<GrepInput['output_mode']>;

export const grepTool = defineTool({
  name: 'Grep',
  description,
  get inputSchema() {
    return inputSchema();
  },
  effect: 'read',
  intent(input, ctx) {
    const folder = intentPath(ctx, input.path ?? '.');
    return {
      ruleName: 'Read',
      subject: folder,
      paths: [{ path: folder, access: 'read' }],
      summary: `Search for /${input.pattern}/ in ${displayPath(ctx, folder)}`,
    };
  },
  // Loaded with the first search, not before the first request (execute.ts): the built-in tools' calls loaded eagerly cost -p ~15 ms of main-thread CPU before its first request (scripts/bench/startup.ts, interleaved).
  async execute(input, ctx): Promise<ToolResult> {
    return (await import('./execute.ts')).executeGrep(input, ctx);
  },
});
