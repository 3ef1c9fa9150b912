/** The HttpRequest tool: one request of any method through the network policy, for APIs. */
import { z } from 'zod';
import { policyFetch, type NetworkGrant, type PolicyResponse } from '../../../sandbox/index.ts';
import { defineTool, ToolError, type AnyTool } from '../../types.ts';
import { convertBody } from '../web-fetch/content.ts';
import description from './description.md' with { type: 'text' };

export const HTTP_REQUEST_TOOL = 'HttpRequest';

export interface HttpRequestOptions {
  /** Tests only: reach loopback and private addresses (a local test server). Never set by the CLI. */
  allowPrivate?: boolean;
  maxBytes?: number;
  maxChars?: number;
}

const DEFAULTS = { maxBytes: 10 * 1024 * 1024, maxChars: 100_000, timeoutMs: 30_000 } as const;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** RFC 9110 §9.2.2: sending these twice has the effect of sending them once (what a retry needs). */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
/** Answers that may pass on a later try. */
export const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
/** Refusals that are not the policy's: the network failed. */
export const RETRYABLE_REFUSAL = new Set(['timeout', 'connection', 'dns']);

const inputSchema = z.lazy(() =>
  z
    .strictObject({
      url: z.string().min(1).describe('The full http:// or https:// URL.'),
      method: z.enum(METHODS).default('GET').describe('HTTP method (default GET).'),
      headers: z.record(z.string(), z.string()).optional().describe('Request headers.'),
      query: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional().describe('Query parameters, added to the URL (encoded for you).'),
      body: z.string().optional().describe('A text body, sent as it is.'),
      json: z.unknown().optional().describe('A JSON body (sent with content-type: application/json).'),
      timeout_ms: z.number().int().min(100).max(120_000).optional().describe('Give up after this long (default 30000).'),
    })
    .refine((i) => i.body === undefined || i.json === undefined, { message: 'give body or json, not both' }),
);

/** Header names whose values are secrets: shown as `***` to the user, never in a summary. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|x-auth-token)$|token|secret|password|api[-_]?key/i;

export function maskHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, SECRET_HEADER.test(k) ? (/^(bearer|basic|token)\s/i.test(v) ? `${v.split(/\s/)[0]} ***` : '***') : v]));
}

/** Query values that look like secrets (`api_key=…`, `token=…`) are masked in what the user is shown too. */
function maskedUrl(url: URL): string {
  const shown = new URL(url.href);
  for (const k of [...shown.searchParams.keys()]) if (SECRET_HEADER.test(k)) shown.searchParams.set(k, '***');
  if (shown.password !== '') shown.password = '***';
  return shown.href;
}

function buildUrl(raw: string, query: Record<string, string | number | boolean> | undefined): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ToolError(`${raw} is not a valid URL: give a full http:// or https:// URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ToolError(`${raw}: only http:// and https:// URLs can be requested.`);
  for (const [k, v] of Object.entries(query ?? {})) url.searchParams.append(k, String(v));
  return url;
}

function urlForIntent(raw: string, query: Record<string, string | number | boolean> | undefined): string {
  try {
    return buildUrl(raw, query).href;
  } catch {
    return raw;
  }
}

function formatBytes(n: number): string {
  return n < 1024 ? `${n} bytes` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;
}

async function bodyText(res: PolicyResponse, method: string, maxChars: number): Promise<string> {
  if (method === 'HEAD' || res.body.length === 0) return '(no body)';
  const contentType = res.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  if (/^application\/([\w.+-]+\+)?json$/.test(mediaType)) {
    const text = new TextDecoder().decode(res.body);
    try {
      return cap(JSON.stringify(JSON.parse(text), null, 2), maxChars);
    } catch {
      return cap(text, maxChars);
    }
  }
  // HTML stays HTML here: an API client wants what the server sent, not a page rendering.
  const converted = /^(text\/html|application\/xhtml\+xml)/.test(mediaType) ? { kind: 'text' as const, text: new TextDecoder().decode(res.body) } : await convertBody(res.body, contentType);
  if (converted.kind === 'binary') return `(binary body: ${converted.mediaType}, ${formatBytes(res.body.length)}; not returned)`;
  return cap(converted.text, maxChars);
}

function cap(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n\n[… truncated: ${text.length - max} more characters]`;
}

export function createHttpRequestTool(o: HttpRequestOptions = {}): AnyTool {
  return defineTool({
    name: HTTP_REQUEST_TOOL,
    description,
    inputSchema,
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
    execute: async (input, ctx) => {
      const url = buildUrl(input.url, input.query);
      const headers: Record<string, string> = { 'user-agent': 'moat-http-request/1', ...(input.headers ?? {}) };
      let body: string | undefined = input.body;
      if (input.json !== undefined) {
        body = JSON.stringify(input.json);
        if (!Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      }
      if (body !== undefined && (input.method === 'GET' || input.method === 'HEAD')) throw new ToolError(`${input.method} requests have no body: use POST, PUT or PATCH, or send the data as query parameters.`);
      const grant: NetworkGrant = { allowHosts: [`*://${url.hostname}:*`], allowPrivate: o.allowPrivate === true, maxResponseBytes: o.maxBytes ?? DEFAULTS.maxBytes, timeoutMs: input.timeout_ms ?? DEFAULTS.timeoutMs };
      const started = performance.now();
      const res = await policyFetch(url, { method: input.method, headers, ...(body === undefined ? {} : { body }), signal: ctx.signal }, grant);
      if (!res.ok) throw new ToolError(`${input.method} ${maskedUrl(url)} failed: ${res.reason}.`, { retryable: RETRYABLE_REFUSAL.has(res.code) });
      const ms = Math.round(performance.now() - started);
      const shownHeaders = res.headers.map(([k, v]) => `${k}: ${SECRET_HEADER.test(k) ? '***' : v}`).join('\n');
      const text = await bodyText(res, input.method, o.maxChars ?? DEFAULTS.maxChars);
      return {
        content: `${input.method} ${maskedUrl(url)}\nStatus: ${res.status} ${res.statusText}`.trim() + `\n${shownHeaders}\n\n${text}`,
        display: { type: 'text', text: `${res.status} ${res.statusText} · ${formatBytes(res.body.length)} · ${ms} ms`.replace(/\s+·/, ' ·') },
        ...(res.status >= 400 ? { isError: true } : {}),
        ...(RETRYABLE_STATUS.has(res.status) ? { retryable: true } : {}),
      };
    },
  }) as unknown as AnyTool;
}

export const httpRequestTool = createHttpRequestTool();
