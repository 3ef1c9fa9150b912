/** The Write tool: creates or overwrites a file (the writing itself is in execute.ts). */
import { displayPath, intentPath } from '../../paths.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import { plural } from '../shared/format.ts';
import description from './description.md' with { type: 'text' };
import { PREVIEW_CHARS, countLines, inputSchema } from './schema.ts';

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
    // Loaded with the first call: the built-in tools' calls loaded up front cost -p's first request 12.2 ms (CPU +15.6 ms, RSS +1.6 MB; scripts/bench/startup.ts, interleaved n=12, load 1.3).
    return (await import('./execute.ts')).executeWrite(input, ctx);
  },
});
