/** The HttpRequest tool: one request of any method through the network policy, for APIs (the request itself is in execute.ts). */
import { defineTool, type AnyTool } from '../../types.ts';
import description from './description.md' with { type: 'text' };
import { HTTP_REQUEST_TOOL, IDEMPOTENT, READS, inputSchema, maskHeaders, maskedUrl, urlForIntent, type HttpRequestOptions } from './schema.ts';

// The module its calls run in: loaded while the model answers the first request, or by the first call (Tool.load).
const load = () => import('./execute.ts');

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
    load,
    execute: async (input, ctx) => (await load()).executeHttpRequest(input, ctx, o),
  }) as unknown as AnyTool;
}

export const httpRequestTool = createHttpRequestTool();
