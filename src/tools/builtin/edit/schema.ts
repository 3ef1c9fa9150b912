/** The Edit tool's input: its zod schema (the single source of the input type), constants and pure helpers shared by index.ts and execute.ts. */
import { z } from 'zod';
import { once } from '../../../util/index.ts';

export const inputSchema = once(() =>
  z.strictObject({
    file_path: z.string().describe('The file to modify: absolute, or relative to the working folder.'),
    old_string: z.string().describe('The exact text to replace, including whitespace and indentation.'),
    new_string: z.string().describe('The text to replace it with (must differ from old_string).'),
    replace_all: z.boolean().optional().describe('Replace every occurrence of old_string (default false).'),
  }),
);

export type EditInput = z.infer<ReturnType<typeof inputSchema>>;
