/**
 * Whether a sandboxed process may open a connection to host:port: the same
 * host patterns as web_fetch and the WASM tools (host-pattern.ts). A proxy
 * sees a host and a port, not a scheme, so a pattern allows the connection
 * when it matches the host on a port one of its schemes would use.
 */
import { bareHost, parseHostPattern, patternMatches } from '../host-pattern.ts';

export type ConnectionVerdict = { ok: true } | { ok: false; reason: string };

function matchesAny(patterns: readonly string[], host: string, port: number): boolean {
  const h = bareHost(host);
  const authority = `${h.includes(':') ? `[${h}]` : h}:${port}`;
  return patterns.some((raw) => {
    const p = parseHostPattern(raw);
    if (p === undefined) return false;
    return [...p.schemes].some((scheme) => patternMatches(p, new URL(`${scheme}//${authority}`)));
  });
}

export function connectionAllowed(host: string, port: number, allow: readonly string[], deny: readonly string[]): ConnectionVerdict {
  if (matchesAny(deny, host, port)) return { ok: false, reason: 'denied by [sandbox.network] deny' };
  if (!matchesAny(allow, host, port)) return { ok: false, reason: 'not in [sandbox.network] allow' };
  return { ok: true };
}
