/** The Bash tool: one command in the OS sandbox, with timeout and output caps (the running itself is in execute.ts). */
import { z } from 'zod';
import { once } from '../../../util/index.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import description from './description.md' with { type: 'text' };

export const MAX_BASH_TIMEOUT_MS = 600_000;

const inputSchema = once(() =>
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

function firstLine(text: string, max: number): string {
  const line = text.split('\n', 1)[0] ?? '';
  const more = line.length < text.length;
  return line.length > max ? `${line.slice(0, max - 1)}…` : more ? `${line} …` : line;
}

export const bashTool = defineTool({
  name: 'Bash',
  description,
  get inputSchema() {
    return inputSchema();
  },
  effect: 'execute',
  osSandboxed: true,
  intent(input, ctx) {
    return {
      ruleName: 'Bash',
      subject: input.command,
      paths: [],
      summary: input.description ?? firstLine(input.command, 120),
      cwd: ctx.cwd,
      ...(input.sandbox === undefined ? {} : { sandboxRequest: input.sandbox }),
    };
  },
  // Loaded with the first command, not before the first request (execute.ts): the built-in tools' calls loaded eagerly cost -p ~15 ms of main-thread CPU before its first request (scripts/bench/startup.ts, interleaved).
  async execute(input, ctx): Promise<ToolResult> {
    return (await import('./execute.ts')).executeBash(input, ctx);
  },
});
