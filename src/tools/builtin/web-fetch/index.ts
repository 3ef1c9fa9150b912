/** The WebFetch tool: one GET through the network policy (the fetching itself is in execute.ts). */
import { defineTool, type AnyTool } from '../../types.ts';
import description from './description.md' with { type: 'text' };
import { hostOf, inputSchema, type WebFetchOptions } from './schema.ts';

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
    // Loaded with the first call: the built-in tools' calls loaded up front cost -p's first request 12.2 ms (CPU +15.6 ms, RSS +1.6 MB; scripts/bench/startup.ts, interleaved n=12, load 1.3).
    execute: async (input, ctx) => (await import('./execute.ts')).executeWebFetch(input, ctx, o),
  }) as unknown as AnyTool;
}

export const webFetchTool = createWebFetchTool();
