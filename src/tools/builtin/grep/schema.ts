/** The Grep tool's input: its zod schema (the single source of the input type), constants and pure helpers shared by index.ts and execute.ts. */
import { z } from 'zod';
import { once } from '../../../util/index.ts';

const contextLines = (what: string) => z.number().int().min(0).max(100).optional().describe(what);

export const inputSchema = once(() =>
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
