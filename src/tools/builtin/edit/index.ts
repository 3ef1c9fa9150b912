/** The Edit tool: replaces exact text in a file and returns the diff (the edit itself is in execute.ts). */
import { displayPath, intentPath } from '../../paths.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import description from './description.md' with { type: 'text' };
import { inputSchema } from './schema.ts';

export const editTool = defineTool({
  name: 'Edit',
  description,
  get inputSchema() {
    return inputSchema();
  },
  effect: 'write',
  intent(input, ctx) {
    // Never touches the disk; the diff a person approves comes from approvalPreview, only when someone is asked.
    const path = intentPath(ctx, input.file_path);
    return { ruleName: 'Edit', subject: path, paths: [{ path, access: 'write' }], summary: `Edit ${displayPath(ctx, path)}` };
  },
  // The same patch the finished card shows: the whole file before and after, so the lines carry their real numbers.
  async approvalPreview(input, ctx) {
    // Loaded with the first call: the built-in tools' calls loaded up front cost -p's first request 12.2 ms (CPU +15.6 ms, RSS +1.6 MB; scripts/bench/startup.ts, interleaved n=12, load 1.3).
    return (await import('./execute.ts')).editPreview(input, ctx);
  },
  // Loaded with the first edit or approval, not before the first request (execute.ts): the built-in tools' calls loaded eagerly cost -p ~15 ms of main-thread CPU before its first request (scripts/bench/startup.ts, interleaved).
  async execute(input, ctx): Promise<ToolResult> {
    return (await import('./execute.ts')).executeEdit(input, ctx);
  },
});
