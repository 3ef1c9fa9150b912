/** The WebFetch tool: one GET through the network policy (the fetching itself is in execute.ts). */
import { defineTool, type AnyTool } from '../../types.ts';
import description from './description.md' with { type: 'text' };
import { hostOf, inputSchema, type WebFetchOptions } from './schema.ts';

// The module its calls run in: loaded while the model answers the first request, or by the first call (Tool.load).
const load = () => import('./execute.ts');

export function createWebFetchTool(o: WebFetchOptions = {}): AnyTool {
  return defineTool({
    name: 'WebFetch',
    description,
    get inputSchema() {
      return inputSchema();
    },
    effect: 'network',
    idempotent: () => true,
    intent: (input) => {
      const host = hostOf(input.url);
      return { ruleName: 'WebFetch', subject: host ?? input.url, paths: [], summary: `fetch ${input.url}` };
    },
    load,
    execute: async (input, ctx) => (await load()).executeWebFetch(input, ctx, o),
  }) as unknown as AnyTool;
}

export const webFetchTool = createWebFetchTool();
