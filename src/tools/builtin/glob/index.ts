/** The Glob tool: file names by pattern, honouring .gitignore (the walk itself is in execute.ts). */
import { displayPath, intentPath } from '../../paths.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import description from './description.md' with { type: 'text' };
import { inputSchema, plan } from './schema.ts';

// The module its calls run in: loaded while the model answers the first request, or by the first call (Tool.load).
const load = () => import('./execute.ts');

export const globTool = defineTool({
  name: 'Glob',
  description,
  get inputSchema() {
    return inputSchema();
  },
  effect: 'read',
  intent(input, ctx) {
    const planned = plan(input.pattern, input.path);
    const folder = intentPath(ctx, planned.base ?? '.');
    return {
      ruleName: 'Read',
      subject: folder,
      paths: [{ path: folder, access: 'read' }],
      summary: `Find files matching ${input.pattern} in ${displayPath(ctx, folder)}`,
    };
  },
  load,
  async execute(input, ctx): Promise<ToolResult> {
    return (await load()).executeGlob(input, ctx);
  },
});
