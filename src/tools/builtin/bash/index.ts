/** The Bash tool: one command in the OS sandbox, with timeout and output caps (the running itself is in execute.ts). */
import { defineTool, type ToolResult } from '../../types.ts';
import description from './description.md' with { type: 'text' };
import { firstLine, inputSchema } from './schema.ts';

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
  // Loaded with the first command, not before the first request (execute.ts): the built-in tools' calls loaded eagerly cost -p ~15 ms of main-thread CPU before its first request (scripts/bench/startup.ts, interleaved).
  async execute(input, ctx): Promise<ToolResult> {
    // Loaded with the first call: the built-in tools' calls loaded up front cost -p's first request 12.2 ms (CPU +15.6 ms, RSS +1.6 MB; scripts/bench/startup.ts, interleaved n=12, load 1.3).
    return (await import('./execute.ts')).executeBash(input, ctx);
  },
});
