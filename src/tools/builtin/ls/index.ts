/** The LS tool: a folder's entries (the listing itself is in execute.ts). */
import { displayPath, intentPath } from '../../paths.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import description from './description.md' with { type: 'text' };
import { inputSchema } from './schema.ts';

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
    // Loaded with the first call: the built-in tools' calls loaded up front cost -p's first request 12.2 ms (CPU +15.6 ms, RSS +1.6 MB; scripts/bench/startup.ts, interleaved n=12, load 1.3).
    return (await import('./execute.ts')).executeLs(input, ctx);
  },
});
