/** The HttpRequest tool's input: its zod schema (the single source of the input type), constants and pure helpers shared by index.ts and execute.ts. */
import { z } from 'zod';
import { once } from '../../../util/index.ts';
import { ToolError } from '../../types.ts';

export const HTTP_REQUEST_TOOL = 'HttpRequest';

export interface HttpRequestOptions {
  /** Tests only: reach loopback and private addresses (a local test server). Never set by the CLI. */
  allowPrivate?: boolean;
  maxBytes?: number;
  maxChars?: number;
}

export const DEFAULTS = { maxBytes: 10 * 1024 * 1024, maxChars: 100_000, timeoutMs: 30_000 } as const;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** RFC 9110 §9.2.2: sending these twice has the effect of sending them once (what a retry needs). */
export const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);
export const inputSchema = once(() =>
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

export type HttpRequestInput = z.infer<ReturnType<typeof inputSchema>>;

/** Header names whose values are secrets: shown as `***` to the user, never in a summary. */
export const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api-key|x-auth-token)$|token|secret|password|api[-_]?key/i;

export function maskHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, SECRET_HEADER.test(k) ? (/^(bearer|basic|token)\s/i.test(v) ? `${v.split(/\s/)[0]} ***` : '***') : v]));
}

/** Query values that look like secrets (`api_key=…`, `token=…`) are masked in what the user is shown too. */
export function maskedUrl(url: URL): string {
  const shown = new URL(url.href);
  for (const k of [...shown.searchParams.keys()]) if (SECRET_HEADER.test(k)) shown.searchParams.set(k, '***');
  if (shown.password !== '') shown.password = '***';
  return shown.href;
}

export function buildUrl(raw: string, query: Record<string, string | number | boolean> | undefined): URL {
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

export function urlForIntent(raw: string, query: Record<string, string | number | boolean> | undefined): string {
  try {
    return buildUrl(raw, query).href;
  } catch {
    return raw;
  }
}
