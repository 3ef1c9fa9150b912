/**
 * The allowlist patterns of a NetworkGrant:
 *
 *   api.example.com        https://api.example.com (port 443)
 *   *.example.com          https, any subdomain of example.com (not example.com itself)
 *   api.example.com:8443   https on port 8443; `:*` for any port
 *   http://host:8080       plain http, when spelled out
 *   *://*.github.net       http or https, each on its default port
 *   [::1]:8080, 127.0.0.1  IP literals (still subject to the private-address block)
 *
 * A pattern without a scheme means https only: a plain-http request must be
 * allowed explicitly.
 */

export interface HostPattern {
  schemes: ReadonlySet<'http:' | 'https:'>;
  /** Exact host, or the suffix after `*.` when `wildcard`. Lowercase, punycode, no brackets. */
  host: string;
  wildcard: boolean;
  /** undefined: the scheme's default port; '*': any. */
  port: number | '*' | undefined;
}

const DEFAULT_PORT: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The hostname of a URL for matching: lowercase, brackets and a trailing dot removed. */
export function bareHost(hostname: string): string {
  let h = hostname.toLowerCase();
  if (h.startsWith('[') && h.endsWith(']')) h = h.slice(1, -1);
  if (h.endsWith('.')) h = h.slice(0, -1);
  return h;
}

export function parseHostPattern(raw: string): HostPattern | undefined {
  let rest = raw.trim();
  let schemes: Set<'http:' | 'https:'> = new Set(['https:'] as const);
  const sep = rest.indexOf('://');
  if (sep >= 0) {
    const scheme = rest.slice(0, sep).toLowerCase();
    if (scheme === '*') schemes = new Set(['http:', 'https:'] as const);
    else if (scheme === 'http') schemes = new Set(['http:'] as const);
    else if (scheme === 'https') schemes = new Set(['https:'] as const);
    else return undefined;
    rest = rest.slice(sep + 3);
  }
  rest = rest.replace(/\/.*$/, '');
  let port: HostPattern['port'];
  const portMatch = /^(.*?):(\d{1,5}|\*)$/.exec(rest);
  if (portMatch !== null && !(rest.startsWith('[') && !rest.includes(']:'))) {
    rest = portMatch[1] ?? '';
    port = portMatch[2] === '*' ? '*' : Number(portMatch[2]);
  }
  const wildcard = rest.startsWith('*.');
  if (wildcard) rest = rest.slice(2);
  if (rest === '' || rest.includes('*')) return undefined;
  let host: string;
  try {
    // Through the URL parser, so the pattern is spelled like the URLs it is compared with (IDNA, IPv6).
    host = bareHost(new URL(`http://${rest}`).hostname);
  } catch {
    return undefined;
  }
  return { schemes, host, wildcard, port };
}

export function patternMatches(p: HostPattern, url: URL): boolean {
  const scheme = url.protocol;
  if (scheme !== 'http:' && scheme !== 'https:') return false;
  if (!p.schemes.has(scheme)) return false;
  const port = url.port === '' ? DEFAULT_PORT[scheme] : Number(url.port);
  if (p.port !== '*' && (p.port ?? DEFAULT_PORT[scheme]) !== port) return false;
  const host = bareHost(url.hostname);
  return p.wildcard ? host.endsWith(`.${p.host}`) : host === p.host;
}
