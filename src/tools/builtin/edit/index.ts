/** The Edit tool: replaces exact text in a file and returns the diff (the edit itself is in execute.ts). */
import { displayPath, intentPath } from '../../paths.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import description from './description.md' with { type: 'text' };
import { inputSchema } from './schema.ts';

// The module its calls run in: loaded while the model answers the first request, or by the first call (Tool.load).
const load = () => import('./execute.ts');

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
    return (await load()).editPreview(input, ctx);
  },
  load,
  async execute(input, ctx): Promise<ToolResult> {
    return (await load()).executeEdit(input, ctx);
  },
});
