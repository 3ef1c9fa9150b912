/** What the HttpRequest tool does once called: the request through the network policy, its answer with secrets masked. */
import { policyFetch, type NetworkGrant, type PolicyResponse } from '../../../sandbox/index.ts';
import { ToolError, type ToolContext, type ToolResult } from '../../types.ts';
import { convertBody } from '../web-fetch/content.ts';
import { buildUrl, DEFAULTS, maskedUrl, SECRET_HEADER, type HttpRequestInput, type HttpRequestOptions } from './schema.ts';

/** Answers that may pass on a later try. */
const RETRYABLE_STATUS = new Set([408, 429, 500, 502, 503, 504]);
/** Refusals that are not the policy's: the network failed. */
const RETRYABLE_REFUSAL = new Set(['timeout', 'connection', 'dns']);

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

export async function executeHttpRequest(input: HttpRequestInput, ctx: ToolContext, o: HttpRequestOptions): Promise<ToolResult> {
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
}
