/** The HttpRequest tool: one request of any method through the network policy, for APIs (the request itself is in execute.ts). */
import { defineTool, type AnyTool } from '../../types.ts';
import description from './description.md' with { type: 'text' };
import { HTTP_REQUEST_TOOL, IDEMPOTENT, READS, inputSchema, maskHeaders, maskedUrl, urlForIntent, type HttpRequestOptions } from './schema.ts';

export function createHttpRequestTool(o: HttpRequestOptions = {}): AnyTool {
  return defineTool({
    name: HTTP_REQUEST_TOOL,
    description,
    get inputSchema() {
      return inputSchema();
    },
    effect: 'network',
    idempotent: (input) => IDEMPOTENT.has(input.method),
    // Reads go by WebFetch's rules (a host allowed for reading is allowed for GET); writes need their own rule naming the method.
    intent: (input) => {
      const href = urlForIntent(input.url, input.query);
      let shown = href;
      try {
        shown = maskedUrl(new URL(href));
      } catch {
        // Not a URL: execute says so.
      }
      const summary = `${input.method} ${shown}${input.headers === undefined ? '' : ` ${JSON.stringify(maskHeaders(input.headers))}`}`;
      if (READS.has(input.method)) {
        let host = href;
        try {
          host = new URL(href).hostname.replace(/^\[|\]$/g, '').toLowerCase();
        } catch {
          // The rule matcher sees the raw text.
        }
        return { ruleName: 'WebFetch', subject: host, paths: [], summary };
      }
      return { ruleName: HTTP_REQUEST_TOOL, subject: `${input.method} ${href.replace(/\?.*$/, '')}`, paths: [], summary };
    },
    // Loaded with the first call: the built-in tools' calls loaded up front cost -p's first request 12.2 ms (CPU +15.6 ms, RSS +1.6 MB; scripts/bench/startup.ts, interleaved n=12, load 1.3).
    execute: async (input, ctx) => (await import('./execute.ts')).executeHttpRequest(input, ctx, o),
  }) as unknown as AnyTool;
}

export const httpRequestTool = createHttpRequestTool();
