/** The Write tool: creates or overwrites a file (the writing itself is in execute.ts). */
import { z } from 'zod';
import { once } from '../../../util/index.ts';
import { displayPath, intentPath } from '../../paths.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import { plural } from '../shared/format.ts';
import description from './description.md' with { type: 'text' };

const PREVIEW_CHARS = 4000;

const inputSchema = once(() =>
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

export const writeTool = defineTool({
  name: 'Write',
  description,
  get inputSchema() {
    return inputSchema();
  },
  effect: 'write',
  intent(input, ctx) {
    const path = intentPath(ctx, input.file_path);
    const preview =
      input.content.length > PREVIEW_CHARS ? `${input.content.slice(0, PREVIEW_CHARS)}\n…` : input.content;
    return {
      ruleName: 'Edit',
      subject: path,
      paths: [{ path, access: 'write' }],
      summary: `Write ${displayPath(ctx, path)} (${plural(countLines(input.content), 'line')})`,
      preview: { type: 'text', text: preview },
    };
  },
  // Loaded with the first write, not before the first request (execute.ts): the built-in tools' calls loaded eagerly cost -p ~15 ms of main-thread CPU before its first request (scripts/bench/startup.ts, interleaved).
  async execute(input, ctx): Promise<ToolResult> {
    return (await import('./execute.ts')).executeWrite(input, ctx);
  },
});
