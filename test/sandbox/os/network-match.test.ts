/**
 * The sandboxed processes' proxy and the WASM tools / web_fetch decide hosts
 * with one set of rules: on a table of patterns and hosts, what the proxy lets
 * a process connect to (host and port) is what checkUrl lets a request reach
 * over http or https on that port, and WebFetch(domain:…) allow rules carried
 * into the sandbox allow the hosts the permission engine's domain matcher does.
 */
import { describe, expect, test } from 'bun:test';
import { checkUrl } from '../../../src/sandbox/network-policy.ts';
import { connectionAllowed } from '../../../src/sandbox/os/network-match.ts';
import { parseRule, ruleSandboxGrants } from '../../../src/tools/permissions/index.ts';
import { domainMatches } from '../../../src/tools/permissions/rule.ts';

const PATTERNS = [
  'api.example.com',
  '*.example.com',
  'api.example.com:8443',
  'http://plain.example.org:8080',
  '*://*.github.net',
  '*://pypi.org:*',
  'https://Bücher.example',
  '[2606:4700::1111]:8080',
  '93.184.216.34',
];

const HOSTS = ['api.example.com', 'API.Example.COM.', 'example.com', 'a.b.example.com', 'evil-example.com', 'plain.example.org', 'x.github.net', 'github.net', 'pypi.org', 'files.pypi.org', 'xn--bcher-kva.example', '2606:4700::1111', '93.184.216.34', '93.184.216.35'];
const PORTS = [80, 443, 8080, 8443, 22];

/** What web_fetch and the WASM tools allow on this host and port: either scheme will do, as a proxy cannot see the scheme. */
function urlPolicyAllows(patterns: readonly string[], host: string, port: number): boolean {
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  // checkUrl also refuses private addresses; the table holds only public ones so only the pattern decides.
  return ['http', 'https'].some((scheme) => !('code' in checkUrl(`${scheme}://${authority}/`, { allowHosts: [...patterns] })));
}

describe('the proxy and the URL policy agree', () => {
  const cases = PATTERNS.flatMap((pattern) => HOSTS.flatMap((host) => PORTS.map((port) => [pattern, host, port] as const)));

  test(`on ${cases.length} pattern × host × port cases, and both allow some and refuse some`, () => {
    let allowed = 0;
    const disagreements: string[] = [];
    for (const [pattern, host, port] of cases) {
      const proxy = connectionAllowed(host, port, [pattern], []).ok;
      const url = urlPolicyAllows([pattern], host, port);
      if (proxy !== url) disagreements.push(`${pattern} ${host}:${port} proxy=${proxy} url=${url}`);
      if (proxy) allowed++;
    }
    expect(disagreements).toEqual([]);
    // The table exercises both answers (a matcher that always says no would agree too).
    expect(allowed).toBeGreaterThan(15);
    expect(allowed).toBeLessThan(cases.length / 2);
  });

  test('a deny pattern wins over an allow pattern for the proxy', () => {
    expect(connectionAllowed('api.example.com', 443, ['*.example.com'], ['api.example.com'])).toEqual({ ok: false, reason: 'denied by [sandbox.network] deny' });
    expect(connectionAllowed('www.example.com', 443, ['*.example.com'], ['api.example.com'])).toEqual({ ok: true });
    expect(connectionAllowed('www.example.com', 443, [], [])).toEqual({ ok: false, reason: 'not in [sandbox.network] allow' });
  });
});

describe('WebFetch(domain:…) allow rules mean the same host in the sandbox', () => {
  const bases = { projectRoot: '/nonexistent/project', cwd: '/nonexistent/project', home: '/nonexistent/home' };
  for (const domain of ['example.com', '*.example.com', 'pypi.org']) {
    test(domain, () => {
      const rule = parseRule(`WebFetch(domain:${domain})`);
      const { allowNetwork } = ruleSandboxGrants({ allow: [rule], deny: [] }, bases);
      for (const host of HOSTS) {
        for (const port of [80, 443]) expect({ host, port, ok: connectionAllowed(host, port, allowNetwork, []).ok }).toEqual({ host, port, ok: domainMatches(domain.toLowerCase(), host) });
      }
    });
  }

  test('WebFetch(domain:*) is not carried over to processes', () => {
    expect(ruleSandboxGrants({ allow: [parseRule('WebFetch(domain:*)')], deny: [] }, bases).allowNetwork).toEqual([]);
  });
});
