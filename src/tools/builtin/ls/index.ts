/** The LS tool: a folder's entries (the listing itself is in execute.ts). */
import { displayPath, intentPath } from '../../paths.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import description from './description.md' with { type: 'text' };
import { inputSchema } from './schema.ts';

// The module its calls run in: loaded while the model answers the first request, or by the first call (Tool.load).
const load = () => import('./execute.ts');

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
  load,
  async execute(input, ctx): Promise<ToolResult> {
    return (await load()).executeLs(input, ctx);
  },
});
