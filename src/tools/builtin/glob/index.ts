/** The Glob tool: file names by pattern, honouring .gitignore (the walk itself is in execute.ts). */
import { displayPath, intentPath } from '../../paths.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import description from './description.md' with { type: 'text' };
import { inputSchema, plan } from './schema.ts';

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
  // Loaded with the first glob, not before the first request (execute.ts): the built-in tools' calls loaded eagerly cost -p ~15 ms of main-thread CPU before its first request (scripts/bench/startup.ts, interleaved).
  async execute(input, ctx): Promise<ToolResult> {
    // Loaded with the first call: the built-in tools' calls loaded up front cost -p's first request 12.2 ms (CPU +15.6 ms, RSS +1.6 MB; scripts/bench/startup.ts, interleaved n=12, load 1.3).
    return (await import('./execute.ts')).executeGlob(input, ctx);
  },
});
