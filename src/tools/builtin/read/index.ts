/** The Read tool: text with line numbers, images, windows of large files (the reading itself is in execute.ts). */
import { displayPath, intentPath } from '../../paths.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import description from './description.md' with { type: 'text' };
import { inputSchema } from './schema.ts';

export const readTool = defineTool({
  name: 'Read',
  description,
  get inputSchema() {
    return inputSchema();
  },
  effect: 'read',
  intent(input, ctx) {
    const path = intentPath(ctx, input.file_path);
    return {
      ruleName: 'Read',
      subject: path,
      paths: [{ path, access: 'read' }],
      summary: `Read ${displayPath(ctx, path)}`,
    };
  },
  // Loaded with the first call: the built-in tools' calls loaded up front cost -p's first request 12.2 ms (CPU +15.6 ms, RSS +1.6 MB; scripts/bench/startup.ts, interleaved n=12, load 1.3).
  async execute(input, ctx): Promise<ToolResult> {
    return (await import('./execute.ts')).executeRead(input, ctx);
  },
});
