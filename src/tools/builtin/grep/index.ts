/** The Grep tool: regex search over files, like ripgrep (the search itself is in execute.ts). */
import { displayPath, intentPath } from '../../paths.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import description from './description.md' with { type: 'text' };
import { inputSchema } from './schema.ts';

// The module its calls run in: loaded while the model answers the first request, or by the first call (Tool.load).
const load = () => import('./execute.ts');

export const grepTool = defineTool({
  name: 'Grep',
  description,
  get inputSchema() {
    return inputSchema();
  },
  effect: 'read',
  intent(input, ctx) {
    const folder = intentPath(ctx, input.path ?? '.');
    return {
      ruleName: 'Read',
      subject: folder,
      paths: [{ path: folder, access: 'read' }],
      summary: `Search for /${input.pattern}/ in ${displayPath(ctx, folder)}`,
    };
  },
  load,
  async execute(input, ctx): Promise<ToolResult> {
    return (await load()).executeGrep(input, ctx);
  },
});
