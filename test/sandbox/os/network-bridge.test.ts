// The network bridge's proxy, driven directly over its Unix socket as the in-sandbox relay would: per-command allow lists, the private-address block, and the refusals it reports.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { request } from 'node:http';
import { join } from 'node:path';
import { networkBridge, type NetworkBridge } from '../../../src/sandbox/os/network-bridge.ts';

let bridge: NetworkBridge;
let origin: ReturnType<typeof Bun.serve>;

beforeAll(async () => {
  bridge = await networkBridge();
  origin = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('hello from the origin') });
});
afterAll(async () => {
  bridge.close();
  await origin.stop(true);
});

/** A plain-http request through the bridge's HTTP proxy, as command `id` (its credentials come from the proxy variables it would get). */
function viaProxy(id: string, url: string): Promise<{ status: number; body: string }> {
  const proxy = new URL(bridge.env(id).HTTP_PROXY ?? '');
  const auth = Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64');
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: join(bridge.socketPath, 'http.sock'), method: 'GET', path: url, headers: { host: new URL(url).host, 'proxy-authorization': `Basic ${auth}` } }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the network bridge', () => {
  test('relays are put in front of the command and the proxy variables point at them', () => {
    expect(bridge.wrap(['curl', 'x']).slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(bridge.wrap(['curl', 'x']).slice(-2)).toEqual(['curl', 'x']);
    expect(bridge.env('some-id')).toMatchObject({ HTTP_PROXY: expect.stringContaining('@localhost:3128'), NO_PROXY: '' });
  });

  test('an allowed host is fetched; another host is refused and reported, per command', async () => {
    const allowed = `http://127.0.0.1:${origin.port}`;
    bridge.register('cmd-a', [allowed], [], { allowPrivate: true, allowLoopback: false });
    expect(await viaProxy('cmd-a', `${allowed}/x`)).toEqual({ status: 200, body: 'hello from the origin' });
    const refused = await viaProxy('cmd-a', 'http://not-allowed.example/');
    expect(refused.status).toBe(403);
    expect(bridge.release('cmd-a')).toEqual([
      { kind: 'network', target: 'not-allowed.example:80', message: 'connection to not-allowed.example:80 refused: not in [sandbox.network] allow' },
    ]);
  });

  test('a granted name that resolves to a private address is refused unless the composition root allows it', async () => {
    const allowed = `http://localhost:${origin.port}`;
    bridge.register('cmd-b', [allowed], [], { allowPrivate: false, allowLoopback: false });
    expect((await viaProxy('cmd-b', `${allowed}/`)).status).not.toBe(200);
    const [v] = bridge.release('cmd-b');
    expect(v?.message).toMatch(new RegExp(`^connection to localhost \\(127\\.0\\.0\\.1\\):${origin.port} refused: it is `));
  });

  test('a deny pattern wins, and an unknown command gets nothing', async () => {
    const allowed = `http://127.0.0.1:${origin.port}`;
    bridge.register('cmd-c', [allowed], [allowed], { allowPrivate: true, allowLoopback: false });
    expect((await viaProxy('cmd-c', `${allowed}/`)).status).toBe(403);
    expect(bridge.release('cmd-c')[0]?.message).toContain('refused: denied by [sandbox.network] deny');
    expect((await viaProxy('never-registered', `${allowed}/`)).status).toBe(403);
    expect(bridge.release('never-registered')).toEqual([]);
  });
});
