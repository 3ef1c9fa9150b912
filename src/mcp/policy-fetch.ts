// The fetch remote MCP servers are reached through: web_fetch's network policy, but streaming (SSE answers stay open).
import { classifyAddress, isIP, resolveAndCheck, type NetworkGrant } from '../sandbox/index.ts';

/** Narrower than `typeof fetch`: what the SDK's transports call. */
export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

export class NetworkRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NetworkRefusedError';
  }
}

/**
 * The grant for one configured server: its own host (any port) and nothing
 * else, plus the hosts its OAuth login used (to refresh tokens). A server the user configured on a loopback or private address (a
 * local development server) may be reached there; a public name that
 * resolves to a private address is still refused (DNS rebinding), and cloud
 * metadata addresses never are reachable.
 */
export function serverGrant(serverUrl: string, authHosts: readonly string[] = []): NetworkGrant {
  const url = new URL(serverUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host) !== 0 ? classifyAddress(host) : undefined;
  const local = host === 'localhost' || (literal !== undefined && literal.blocked !== undefined && !literal.metadata);
  return { allowHosts: [url.hostname, ...authHosts].map((h) => `*://${h}:*`), allowPrivate: local };
}

/**
 * A fetch that resolves the name, checks every address against the policy,
 * then connects to the checked address only (Host header and TLS name kept),
 * so an answer that changes between check and connect cannot slip through.
 * The response streams. Redirects are not followed.
 */
export function policyFetchFor(grant: NetworkGrant): FetchLike {
  return async (input, init) => {
    const resolved = await resolveAndCheck(String(input), grant);
    if (!resolved.ok) throw new NetworkRefusedError(resolved.reason);
    const { url, address, family, host } = resolved;
    const pinned = new URL(url.href);
    // localhost resolves to a loopback address the grant allowed; the name keeps working for the server's own checks.
    if (host !== 'localhost') pinned.hostname = family === 6 ? `[${address}]` : address;
    const headers = new Headers(init?.headers);
    headers.set('host', url.host);
    return fetch(pinned, {
      ...init,
      headers,
      redirect: 'manual',
      ...(url.protocol === 'https:' && isIP(host) === 0 ? { tls: { serverName: host } } : {}),
    });
  };
}
