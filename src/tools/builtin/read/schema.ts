/** The Read tool's input: its zod schema (the single source of the input type), constants and pure helpers shared by index.ts and execute.ts. */
import { z } from 'zod';
import { once } from '../../../util/index.ts';

export const DEFAULT_READ_LIMIT = 2000;

export const inputSchema = once(() =>
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
