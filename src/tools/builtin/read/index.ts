/** The Read tool: text with line numbers, images, windows of large files (the reading itself is in execute.ts). */
import { z } from 'zod';
import { once } from '../../../util/index.ts';
import { displayPath, intentPath } from '../../paths.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import description from './description.md' with { type: 'text' };

export const DEFAULT_READ_LIMIT = 2000;

const inputSchema = once(() =>
  z.strictObject({
    file_path: z.string().describe('The file to read: absolute, or relative to the working folder.'),
    offset: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('1-based line number to start reading from. Only needed for files too large to read at once.'),
    limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(`How many lines to read (default ${DEFAULT_READ_LIMIT}). Only needed for files too large to read at once.`),
    pages: z.string().optional().describe('PDF files only: the pages to read, "3", "1-5" or "2,4-6" (default: the first 20).'),
  }),
);

export type ReadInput = z.infer<ReturnType<typeof inputSchema>>;

export const readTool = defineTool({
  name: 'Read',
  description,
  get inputSchema() {
    return inputSchema();
  },
  effect: 'read',
  intent(input, ctx) {
    const path = intentPath(ctx, input.file_path);
    return {
      ruleName: 'Read',
      subject: path,
      paths: [{ path, access: 'read' }],
      summary: `Read ${displayPath(ctx, path)}`,
    };
  },
  // Loaded with the first read, not before the first request (execute.ts): the built-in tools' calls loaded eagerly cost -p ~15 ms of main-thread CPU before its first request (scripts/bench/startup.ts, interleaved).
  async execute(input, ctx): Promise<ToolResult> {
    return (await import('./execute.ts')).executeRead(input, ctx);
  },
});
