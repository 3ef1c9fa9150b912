/** The Bash tool's input: its zod schema (the single source of the input type), constants and pure helpers shared by index.ts and execute.ts. */
import { z } from 'zod';
import { once } from '../../../util/index.ts';

export const MAX_BASH_TIMEOUT_MS = 600_000;

export const inputSchema = once(() =>
  z.strictObject({
    command: z.string().min(1).describe('The command to run with bash.'),
    timeout: z
      .number()
      .int()
      .min(1)
      .max(MAX_BASH_TIMEOUT_MS)
      .optional()
      .describe(`Timeout in milliseconds (max ${MAX_BASH_TIMEOUT_MS}). Defaults to the configured bash timeout (120000 unless changed).`),
    description: z
      .string()
      .optional()
      .describe('What the command does, in 5-10 words, e.g. "Run the unit tests" or "Install dependencies".'),
    sandbox: z
      .enum(['workspace-write', 'off'])
      .optional()
      .describe('More than the default read-only sandbox: "workspace-write" to write in the working folder and reach allowed hosts, "off" to run without the sandbox. The user may be asked.'),
  }),
);

export type BashInput = z.infer<ReturnType<typeof inputSchema>>;

export function firstLine(text: string, max: number): string {
  const line = text.split('\n', 1)[0] ?? '';
  const more = line.length < text.length;
  return line.length > max ? `${line.slice(0, max - 1)}…` : more ? `${line} …` : line;
}
