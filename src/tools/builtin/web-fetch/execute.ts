/** What the WebFetch tool does once called: the GET through the network policy, redirects checked hop by hop, the body as text. */
import { checkUrl, policyFetch, type NetworkGrant, type PolicyResponse } from '../../../sandbox/index.ts';
import { ToolError, type ToolContext, type ToolResult } from '../../types.ts';
import { convertBody } from './content.ts';
import { WEB_FETCH_DEFAULTS, type WebFetchInput, type WebFetchOptions } from './schema.ts';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A grant for exactly this URL's host (any port, http or https): the permission system decided the host already. */
function grantFor(url: URL, o: WebFetchOptions): NetworkGrant {
  return {
    allowHosts: [`*://${url.hostname}:*`],
    allowPrivate: o.allowPrivate === true,
    maxResponseBytes: o.maxBytes ?? WEB_FETCH_DEFAULTS.maxBytes,
    timeoutMs: o.timeoutMs ?? WEB_FETCH_DEFAULTS.timeoutMs,
  };
}

function header(res: PolicyResponse, name: string): string | undefined {
  return res.headers.find(([k]) => k.toLowerCase() === name)?.[1];
}

function cap(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  return { text: `${text.slice(0, max)}\n\n[… truncated: ${text.length - max} more characters. Fetch a more specific URL for the rest.]`, truncated: true };
}

async function fetchFollowing(start: URL, o: WebFetchOptions, signal: AbortSignal): Promise<{ res: PolicyResponse; url: URL } | ToolResult> {
  const max = o.maxRedirects ?? WEB_FETCH_DEFAULTS.maxRedirects;
  let url = start;
  for (let hop = 0; ; hop++) {
    const res = await policyFetch(url, { headers: { accept: 'text/html, text/markdown, text/plain, application/json, */*;q=0.5', 'user-agent': 'moat-web-fetch/1' }, signal }, grantFor(url, o));
    if (!res.ok) throw new ToolError(`Cannot fetch ${url.href}: ${res.reason}.`, { retryable: res.code === 'timeout' || res.code === 'connection' || res.code === 'dns' });
    const location = header(res, 'location');
    if (!REDIRECTS.has(res.status) || location === undefined) return { res, url };
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new ToolError(`${url.href} redirected to an invalid URL: ${location}`);
    }
    // Checked before anything else: a redirect to a refused address is refused, not offered as a new URL.
    const checked = checkUrl(next, grantFor(next, o));
    if (!checked.ok) throw new ToolError(`${url.href} redirected to ${next.href}, which is refused: ${checked.reason}.`);
    if (next.hostname !== start.hostname) {
      return {
        content: `${url.href} redirects (${res.status}) to another host: ${next.href}\nIt was not followed, because permission covers ${start.hostname} only. Call web_fetch with that URL if you need it.`,
        display: { type: 'text', text: `${res.status} → ${next.href}` },
      };
    }
    if (hop + 1 > max) throw new ToolError(`Too many redirects (more than ${max}) starting at ${start.href}; last: ${next.href}.`);
    url = next;
  }
}

export async function executeWebFetch(input: WebFetchInput, ctx: ToolContext, o: WebFetchOptions): Promise<ToolResult> {
  let start: URL;
  try {
    start = new URL(input.url);
  } catch {
    throw new ToolError(`${input.url} is not a valid URL: give a full http:// or https:// URL.`);
  }
  const got = await fetchFollowing(start, o, ctx.signal);
  if (!('res' in got)) return got;
  const { res, url } = got;
  const contentType = header(res, 'content-type') ?? '';
  const converted = await convertBody(res.body, contentType);
  const head = `URL: ${url.href}\nStatus: ${res.status} ${res.statusText}`.trim();
  if (converted.kind === 'binary') {
    return { content: `${head}\nContent-Type: ${converted.mediaType}\n\nRefused: binary content (${converted.mediaType}, ${res.body.length} bytes) is not returned. Only text and HTML pages can be fetched.`, isError: true };
  }
  const { text, truncated } = cap(converted.text, input.max_length ?? o.maxChars ?? WEB_FETCH_DEFAULTS.maxChars);
  const result: ToolResult = {
    content: `${head}\nContent-Type: ${contentType || 'unknown'}${converted.markdown ? ' (converted to Markdown)' : ''}\n\n${text}`,
    display: { type: 'text', text: `${res.status} ${url.href} · ${converted.text.length} chars${truncated ? ' (truncated)' : ''}` },
  };
  if (res.status >= 400) result.isError = true;
  if ([408, 429, 500, 502, 503, 504].includes(res.status)) result.retryable = true;
  return result;
}
