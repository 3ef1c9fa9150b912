/** The Bash tool: one command in the OS sandbox, with timeout and output caps (the running itself is in execute.ts). */
import { defineTool, type ToolResult } from '../../types.ts';
import description from './description.md' with { type: 'text' };
import { firstLine, inputSchema } from './schema.ts';

// The module its calls run in: loaded while the model answers the first request, or by the first call (Tool.load).
const load = () => import('./execute.ts');

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
  load,
  async execute(input, ctx): Promise<ToolResult> {
    return (await load()).executeBash(input, ctx);
  },
});
