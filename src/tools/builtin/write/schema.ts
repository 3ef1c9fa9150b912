/** The Write tool's input: its zod schema (the single source of the input type), constants and pure helpers shared by index.ts and execute.ts. */
import { z } from 'zod';
import { once } from '../../../util/index.ts';

export const PREVIEW_CHARS = 4000;

export const inputSchema = once(() =>
  z.strictObject({
    file_path: z.string().describe('The file to write: absolute, or relative to the working folder.'),
    content: z.string().describe('The complete new content of the file.'),
  }),
);

export function countLines(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

export type WriteInput = z.infer<ReturnType<typeof inputSchema>>;
