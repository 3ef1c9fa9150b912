/** The LS tool: a folder's entries (the listing itself is in execute.ts). */
import { z } from 'zod';
import { once } from '../../../util/index.ts';
import { displayPath, intentPath } from '../../paths.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import description from './description.md' with { type: 'text' };

const inputSchema = once(() =>
  z.strictObject({
    path: z
      .string()
      .optional()
      .describe('The folder to list: absolute, or relative to the working folder. Defaults to the working folder.'),
    ignore: z.array(z.string()).optional().describe('Glob patterns of entry names to leave out, e.g. ["*.log", "node_modules"].'),
  }),
);

export type LsInput = z.infer<ReturnType<typeof inputSchema>>;

export const lsTool = defineTool({
  name: 'LS',
  description,
  get inputSchema() {
    return inputSchema();
  },
  effect: 'read',
  intent(input, ctx) {
    const path = intentPath(ctx, input.path ?? '.');
    return {
      ruleName: 'Read',
      subject: path,
      paths: [{ path, access: 'read' }],
      summary: `List ${displayPath(ctx, path)}`,
    };
  },
  // Loaded with the first listing, not before the first request (execute.ts): the built-in tools' calls loaded eagerly cost -p ~15 ms of main-thread CPU before its first request (scripts/bench/startup.ts, interleaved).
  async execute(input, ctx): Promise<ToolResult> {
    return (await import('./execute.ts')).executeLs(input, ctx);
  },
});
