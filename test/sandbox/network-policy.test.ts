import { afterAll, beforeAll, describe, expect, mock, test } from 'bun:test';
import { checkAddress, checkUrl, classifyAddress, parseHostPattern, patternMatches, policyFetch, resolveAndCheck, type NetworkGrant } from '../../src/sandbox/index.ts';

/**
 * The shared network policy. Nothing here sends a packet anywhere but
 * 127.0.0.1: the blocked addresses are refused before any connection, which
 * the fetch spy proves.
 */

let server: ReturnType<typeof Bun.serve>;
let origin: string;
const seen: { host: string | null; method: string; path: string; body: string }[] = [];

beforeAll(() => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      seen.push({ host: req.headers.get('host'), method: req.method, path: url.pathname + url.search, body: await req.text() });
      if (url.pathname === '/redirect') return new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data' } });
      if (url.pathname === '/big') return new Response('x'.repeat(100_000));
      if (url.pathname === '/slow') return new Promise((resolve) => setTimeout(() => resolve(new Response('late')), 2000));
      return new Response(`hello ${req.method}`, { headers: { 'x-test': 'yes' } });
    },
  });
  origin = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.stop(true));

const none: NetworkGrant = { allowHosts: ['*://*.example.com:*', 'http://10.0.0.1', 'http://169.254.169.254', 'http://[::1]', 'http://[::ffff:127.0.0.1]', 'http://localhost:*'] };

describe('blocked addresses are refused before connecting', () => {
  test.each([
    ['http://127.0.0.1/', 'loopback'],
    ['http://10.0.0.1/', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'cloud metadata'],
    ['http://[::1]/', 'loopback'],
    ['http://[::ffff:127.0.0.1]/', 'loopback'],
    ['http://[::ffff:10.0.0.1]/', 'private'],
    ['http://[fd00:ec2::254]/', 'cloud metadata'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://100.64.0.1/', 'carrier-grade NAT'],
    ['http://0x7f.1/', 'loopback'],
    ['http://2130706433/', 'loopback'],
    ['http://0.0.0.0/', 'unspecified'],
  ])('%s (%s)', async (url, why) => {
    const spy = mock(globalThis.fetch);
    const real = globalThis.fetch;
    globalThis.fetch = spy as unknown as typeof fetch;
    try {
      const r = await policyFetch(url, {}, { ...none, allowHosts: ['*://*:*', ...none.allowHosts] });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.code).toBe('blocked-address');
        expect(r.reason).toContain(why);
      }
      expect(spy).not.toHaveBeenCalled();
    } finally {
      globalThis.fetch = real;
    }
  });

  test('a name that resolves to a private address is refused after DNS', async () => {
    const r = await resolveAndCheck(`http://localhost:${server.port}/`, none);
    expect(r).toEqual({ ok: false, code: 'blocked-address', reason: `localhost:${server.port} (127.0.0.1) is a loopback address; only public addresses are reachable` });
  });

  test('metadata addresses stay blocked even when private ones are allowed', () => {
    expect(checkAddress('169.254.169.254', { allowHosts: [], allowPrivate: true })?.code).toBe('blocked-address');
    expect(checkAddress('10.0.0.1', { allowHosts: [], allowPrivate: true })).toBeUndefined();
  });

  test('public addresses pass the address check', () => {
    expect(checkAddress('93.184.216.34', none)).toBeUndefined();
    expect(checkAddress('2606:2800:220:1:248:1893:25c8:1946', none)).toBeUndefined();
  });
});

describe('address classification', () => {
  test.each([
    ['::ffff:10.0.0.1', '10.0.0.1', 'private'],
    ['::ffff:a00:1', '10.0.0.1', 'private'],
    ['64:ff9b::a9fe:a9fe', '169.254.169.254', 'link-local'],
    ['2002:c0a8:0101::1', '192.168.1.1', 'private'],
    ['172.16.5.4', '172.16.5.4', 'private'],
    ['172.32.0.1', '172.32.0.1', undefined],
    ['fc00::1', 'fc00::1', 'unique-local'],
    ['ff02::1', 'ff02::1', 'multicast'],
  ])('%s → %s', (ip, address, blocked) => {
    const v = classifyAddress(ip);
    expect(v?.address).toBe(address);
    expect(v?.blocked).toBe(blocked as typeof v extends undefined ? never : NonNullable<typeof v>['blocked']);
  });
});

describe('allowlist patterns', () => {
  const m = (pattern: string, url: string): boolean => {
    const p = parseHostPattern(pattern);
    return p !== undefined && patternMatches(p, new URL(url));
  };
  test('exact host: https on the default port only', () => {
    expect(m('api.example.com', 'https://api.example.com/v1')).toBe(true);
    expect(m('api.example.com', 'http://api.example.com/')).toBe(false);
    expect(m('api.example.com', 'https://api.example.com:8443/')).toBe(false);
    expect(m('api.example.com', 'https://evil-api.example.com/')).toBe(false);
    expect(m('api.example.com', 'https://api.example.com.evil.com/')).toBe(false);
    expect(m('API.Example.COM', 'https://api.example.com./')).toBe(true);
  });
  test('wildcard subdomains, not the apex', () => {
    expect(m('*.example.com', 'https://a.example.com/')).toBe(true);
    expect(m('*.example.com', 'https://a.b.example.com/')).toBe(true);
    expect(m('*.example.com', 'https://example.com/')).toBe(false);
    expect(m('*.example.com', 'https://badexample.com/')).toBe(false);
  });
  test('ports and schemes', () => {
    expect(m('host.test:8080', 'https://host.test:8080/')).toBe(true);
    expect(m('host.test:8080', 'https://host.test/')).toBe(false);
    expect(m('host.test:*', 'https://host.test:1234/')).toBe(true);
    expect(m('*://*.github.net', 'http://x.github.net/')).toBe(true);
    expect(m('*://*.github.net', 'https://x.github.net/')).toBe(true);
    expect(m('*://*.github.net', 'ftp://x.github.net/')).toBe(false);
    expect(m('http://127.0.0.1:9', 'http://127.0.0.1:9/')).toBe(true);
  });
  test('malformed patterns match nothing', () => {
    expect(parseHostPattern('*')).toBeUndefined();
    expect(parseHostPattern('ftp://x.com')).toBeUndefined();
    expect(parseHostPattern('a.*.com')).toBeUndefined();
  });
  test('checkUrl refuses hosts outside the allowlist, naming the list', () => {
    expect(checkUrl('https://other.com/', { allowHosts: ['api.example.com'] })).toEqual({
      ok: false,
      code: 'not-allowed',
      reason: 'https://other.com is not in the network allowlist (allowed: api.example.com)',
    });
    expect(checkUrl('file:///etc/passwd', { allowHosts: ['*.example.com'] })).toMatchObject({ ok: false, code: 'scheme' });
    expect(checkUrl('https://user:pw@api.example.com/', { allowHosts: ['api.example.com'] })).toMatchObject({ ok: false, code: 'invalid-url' });
  });
});

describe('policyFetch against a loopback test server (allowPrivate)', () => {
  const grant = (): NetworkGrant => ({ allowHosts: [`http://127.0.0.1:${server.port}`, `http://localhost:${server.port}`], allowPrivate: true });

  test('an allowed host is fetched', async () => {
    const r = await policyFetch(`${origin}/hello?q=1`, { method: 'POST', body: 'payload', headers: { 'x-a': 'b' } }, grant());
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect({ status: r.status, body: new TextDecoder().decode(r.body), address: r.address }).toEqual({ status: 200, body: 'hello POST', address: '127.0.0.1' });
      expect(r.headers).toContainEqual(['x-test', 'yes']);
    }
    expect(seen.at(-1)).toEqual({ host: `127.0.0.1:${server.port}`, method: 'POST', path: '/hello?q=1', body: 'payload' });
  });

  test('a name is connected to by its checked address, with the original Host header', async () => {
    const r = await policyFetch(`http://localhost:${server.port}/named`, {}, grant());
    expect(r.ok && r.address).toBe('127.0.0.1');
    expect(seen.at(-1)?.host).toBe(`localhost:${server.port}`);
  });

  test('redirects are not followed: the caller sees the 302 and re-checks the next hop', async () => {
    const r = await policyFetch(`${origin}/redirect`, {}, grant());
    expect(r.ok && r.status).toBe(302);
    const location = r.ok ? (r.headers.find(([k]) => k === 'location')?.[1] ?? '') : '';
    expect(checkUrl(location, grant())).toMatchObject({ ok: false, code: 'blocked-address' });
  });

  test('the response size cap', async () => {
    const r = await policyFetch(`${origin}/big`, {}, { ...grant(), maxResponseBytes: 10_000 });
    expect(r).toEqual({ ok: false, code: 'response-too-large', reason: `response from 127.0.0.1:${server.port} is over the 10000-byte limit` });
  });

  test('the request size cap', async () => {
    const r = await policyFetch(`${origin}/`, { method: 'POST', body: 'x'.repeat(2000) }, { ...grant(), maxRequestBytes: 1000 });
    expect(r).toMatchObject({ ok: false, code: 'request-too-large' });
  });

  test('the timeout', async () => {
    const r = await policyFetch(`${origin}/slow`, {}, { ...grant(), timeoutMs: 200 });
    expect(r).toMatchObject({ ok: false, code: 'timeout' });
  });

  test('without allowPrivate the same server is refused', async () => {
    const r = await policyFetch(`${origin}/`, {}, { allowHosts: grant().allowHosts });
    expect(r).toMatchObject({ ok: false, code: 'blocked-address' });
  });
});
