/** The LS tool's input: its zod schema (the single source of the input type), constants and pure helpers shared by index.ts and execute.ts. */
import { z } from 'zod';
import { once } from '../../../util/index.ts';

export const inputSchema = once(() =>
  z.strictObject({
    path: z
      .string()
      .optional()
      .describe('The folder to list: absolute, or relative to the working folder. Defaults to the working folder.'),
    ignore: z.array(z.string()).optional().describe('Glob patterns of entry names to leave out, e.g. ["*.log", "node_modules"].'),
  }),
);

export type LsInput = z.infer<ReturnType<typeof inputSchema>>;
