/** The Read tool: text with line numbers, images, windows of large files (the reading itself is in execute.ts). */
import { displayPath, intentPath } from '../../paths.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import description from './description.md' with { type: 'text' };
import { inputSchema } from './schema.ts';

// The module its calls run in: loaded while the model answers the first request, or by the first call (Tool.load).
const load = () => import('./execute.ts');

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
  load,
  async execute(input, ctx): Promise<ToolResult> {
    return (await load()).executeRead(input, ctx);
  },
});
