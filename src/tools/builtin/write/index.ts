/** The Write tool: creates or overwrites a file (the writing itself is in execute.ts). */
import { displayPath, intentPath } from '../../paths.ts';
import { defineTool, type ToolResult } from '../../types.ts';
import { plural } from '../shared/format.ts';
import description from './description.md' with { type: 'text' };
import { PREVIEW_CHARS, countLines, inputSchema } from './schema.ts';

// The module its calls run in: loaded while the model answers the first request, or by the first call (Tool.load).
const load = () => import('./execute.ts');

export const writeTool = defineTool({
  name: 'Write',
  description,
  get inputSchema() {
    return inputSchema();
  },
  effect: 'write',
  intent(input, ctx) {
    const path = intentPath(ctx, input.file_path);
    const preview =
      input.content.length > PREVIEW_CHARS ? `${input.content.slice(0, PREVIEW_CHARS)}\n…` : input.content;
    return {
      ruleName: 'Edit',
      subject: path,
      paths: [{ path, access: 'write' }],
      summary: `Write ${displayPath(ctx, path)} (${plural(countLines(input.content), 'line')})`,
      preview: { type: 'text', text: preview },
    };
  },
  load,
  async execute(input, ctx): Promise<ToolResult> {
    return (await load()).executeWrite(input, ctx);
  },
});
