/** The one network policy shared by WebAssembly tools, WebFetch and the OS sandbox. */
import { lookup } from 'node:dns/promises';
import { bareHost, parseHostPattern, patternMatches } from './host-pattern.ts';
import { classifyAddress, isIP } from './ip-address.ts';
import type { NetworkGrant } from './types.ts';

/**
 * The one network policy, shared by the sandbox's wasi:http host and the
 * built-in web_fetch tool. A request is allowed when its URL matches the
 * grant's allowlist (host-pattern.ts) and the address actually connected to
 * is not private, loopback, link-local, CGNAT, reserved or a cloud metadata
 * endpoint. The name is resolved here and the connection is made to the
 * checked address (with the original Host header and TLS server name), so a
 * DNS answer that changes between check and connect cannot slip through.
 * Redirects are never followed here: the caller re-checks every hop.
 */

export const DEFAULT_MAX_REQUEST_BYTES = 1 << 20;
export const DEFAULT_MAX_RESPONSE_BYTES = 10 << 20;
export const DEFAULT_NETWORK_TIMEOUT_MS = 30_000;

export type RefusalCode = 'invalid-url' | 'scheme' | 'not-allowed' | 'blocked-address' | 'dns' | 'request-too-large' | 'response-too-large' | 'timeout' | 'connection';

export interface Refusal {
  ok: false;
  code: RefusalCode;
  /** One sentence for the model or the user: what was refused and why. */
  reason: string;
}

function refuse(code: RefusalCode, reason: string): Refusal {
  return { ok: false, code, reason };
}

export interface CheckedUrl {
  ok: true;
  url: URL;
  /** Hostname without brackets or trailing dot. */
  host: string;
}

/** Allowlist and literal-address check, without DNS. */
export function checkUrl(input: string | URL, grant: NetworkGrant): CheckedUrl | Refusal {
  let url: URL;
  try {
    url = new URL(String(input));
  } catch {
    return refuse('invalid-url', `${String(input)} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return refuse('scheme', `${url.protocol} URLs are not allowed; only http and https`);
  if (url.username !== '' || url.password !== '') return refuse('invalid-url', 'URLs with credentials are not allowed');
  const host = bareHost(url.hostname);
  if (isIP(host) !== 0) {
    const refusal = checkAddress(host, grant, url);
    if (refusal !== undefined) return refusal;
  }
  const allowed = grant.allowHosts.some((raw) => {
    const p = parseHostPattern(raw);
    return p !== undefined && patternMatches(p, url);
  });
  if (!allowed) {
    const list = grant.allowHosts.length === 0 ? 'no hosts are allowed' : `allowed: ${grant.allowHosts.join(', ')}`;
    return refuse('not-allowed', `${url.protocol}//${url.host} is not in the network allowlist (${list})`);
  }
  return { ok: true, url, host };
}

/** Undefined when `ip` may be connected to under `grant`, else the refusal. */
export function checkAddress(ip: string, grant: NetworkGrant, url?: URL): Refusal | undefined {
  const v = classifyAddress(ip);
  const what = url === undefined || bareHost(url.hostname) === ip ? ip : `${url.host} (${ip})`;
  if (v === undefined) return refuse('blocked-address', `${what} is not an IP address`);
  if (v.metadata) return refuse('blocked-address', `${what} is a cloud metadata address, which is never reachable`);
  if (v.blocked !== undefined && grant.allowPrivate !== true && !(v.blocked === 'loopback' && grant.allowLoopback === true)) {
    const shown = v.address === ip ? '' : ` (${v.address})`;
    return refuse('blocked-address', `${what}${shown} is a ${v.blocked} address; only public addresses are reachable`);
  }
  return undefined;
}

export interface ResolvedUrl extends CheckedUrl {
  /** The address to connect to: checked, and the only one used. */
  address: string;
  family: 4 | 6;
}

/** checkUrl, then resolve the name and check every address it resolves to. */
export async function resolveAndCheck(input: string | URL, grant: NetworkGrant): Promise<ResolvedUrl | Refusal> {
  const checked = checkUrl(input, grant);
  if (!checked.ok) return checked;
  const literal = isIP(checked.host);
  if (literal !== 0) return { ...checked, address: checked.host, family: literal === 4 ? 4 : 6 };
  let addresses: { address: string; family: number }[];
  try {
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('DNS lookup timed out')), 5000).unref());
    addresses = await Promise.race([lookup(checked.host, { all: true, verbatim: true }), timeout]);
  } catch (e) {
    return refuse('dns', `cannot resolve ${checked.host}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (addresses.length === 0) return refuse('dns', `${checked.host} has no address`);
  // Any blocked answer refuses the name: a name that mixes public and private answers is a rebinding setup.
  for (const a of addresses) {
    const refusal = checkAddress(a.address, grant, checked.url);
    if (refusal !== undefined) return refusal;
  }
  const first = addresses[0] as { address: string; family: number };
  return { ...checked, address: first.address, family: first.family === 6 ? 6 : 4 };
}

export interface PolicyRequestInit {
  method?: string;
  headers?: [string, string][] | Record<string, string>;
  body?: Uint8Array | string;
  signal?: AbortSignal;
}

export interface PolicyResponse {
  ok: true;
  status: number;
  statusText: string;
  headers: [string, string][];
  body: Uint8Array;
  /** The URL requested (redirects are not followed: see `location` in headers). */
  url: string;
  /** The address connected to. */
  address: string;
}

/**
 * A fetch under the policy: resolve and check, connect to the checked address
 * only, no redirects followed, request and response bodies capped, a timeout.
 */
export async function policyFetch(input: string | URL, init: PolicyRequestInit, grant: NetworkGrant): Promise<PolicyResponse | Refusal> {
  const maxRequest = grant.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const maxResponse = grant.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const timeoutMs = grant.timeoutMs ?? DEFAULT_NETWORK_TIMEOUT_MS;
  const body = typeof init.body === 'string' ? new TextEncoder().encode(init.body) : init.body;
  if (body !== undefined && body.length > maxRequest) return refuse('request-too-large', `request body of ${body.length} bytes is over the ${maxRequest}-byte limit`);
  const resolved = await resolveAndCheck(input, grant);
  if (!resolved.ok) return resolved;
  const { url, address, family, host } = resolved;
  const pinned = new URL(url.href);
  pinned.hostname = family === 6 ? `[${address}]` : address;
  const headers = new Headers(init.headers);
  headers.set('host', url.host);
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = init.signal === undefined ? timeout : AbortSignal.any([init.signal, timeout]);
  let res: Response;
  try {
    res = await fetch(pinned, {
      method: init.method ?? 'GET',
      headers,
      ...(body === undefined ? {} : { body: body as Uint8Array<ArrayBuffer> }),
      redirect: 'manual',
      signal,
      // The certificate must match the name asked for, not the address connected to.
      ...(url.protocol === 'https:' && isIP(host) === 0 ? { tls: { serverName: host } } : {}),
    });
  } catch (e) {
    if (timeout.aborted) return refuse('timeout', `${url.href} timed out after ${timeoutMs} ms`);
    return refuse('connection', `${url.href}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    if (res.body !== null) {
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.length;
        if (size > maxResponse) {
          await reader.cancel();
          return refuse('response-too-large', `response from ${url.host} is over the ${maxResponse}-byte limit`);
        }
        chunks.push(value);
      }
    }
  } catch (e) {
    if (timeout.aborted) return refuse('timeout', `${url.href} timed out after ${timeoutMs} ms`);
    return refuse('connection', `${url.href}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return { ok: true, status: res.status, statusText: res.statusText, headers: [...res.headers], body: out, url: url.href, address };
}
