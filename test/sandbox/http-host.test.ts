import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { createHost, HostContext } from '../../src/sandbox/host/index.ts';
import { Fields } from '../../src/sandbox/host/http-fields.ts';
import { InputStream } from '../../src/sandbox/host/streams.ts';
import { DEFAULT_LIMITS, type NetworkGrant } from '../../src/sandbox/index.ts';

/**
 * The wasi:http client host, driven the way a guest drives it (the calls jco's
 * glue makes): build an outgoing request, `handle` it, block on the future,
 * read the body stream. Only 127.0.0.1 is ever contacted.
 */

let server: ReturnType<typeof Bun.spawn<'pipe', 'pipe', 'inherit'>>;
let port = 0;

beforeAll(async () => {
  server = Bun.spawn([process.execPath, join(import.meta.dir, 'fixtures', 'echo-server.ts')], { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit' });
  const reader = server.stdout.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  port = Number(new TextDecoder().decode(value).trim());
});
afterAll(async () => {
  await server.stdin.end();
  await server.exited;
});

async function hits(): Promise<number> {
  return Number(await (await fetch(`http://127.0.0.1:${port}/hits`)).text());
}

interface HttpTypes {
  OutgoingRequest: new (h: Fields) => {
    setMethod(m: { tag: string; val?: string }): void;
    setScheme(s: { tag: string }): void;
    setAuthority(a: string): void;
    setPathWithQuery(p: string): void;
    body(): { write(): { blockingWriteAndFlush(b: Uint8Array): void } };
  };
}
interface FutureLike {
  subscribe(): { block(): void };
  get(): { tag: 'ok'; val: { tag: 'ok'; val: ResponseLike } | { tag: 'err'; val: { tag: string } } } | undefined;
}
interface ResponseLike {
  status(): number;
  headers(): Fields;
  consume(): { stream(): InputStream };
}

function client(grant: NetworkGrant) {
  const host = createHost({ args: [], env: {}, preopens: [], network: grant, ctx: new HostContext(DEFAULT_LIMITS) });
  const types = host.imports['wasi:http/types'] as unknown as HttpTypes;
  const { handle } = host.imports['wasi:http/outgoing-handler'] as unknown as { handle(r: unknown, o: undefined): FutureLike };
  return (url: string, init: { method?: string; body?: string; header?: string } = {}) => {
    const u = new URL(url);
    const headers = new Fields();
    if (init.header !== undefined) headers.append('x-tool', new TextEncoder().encode(init.header));
    const req = new types.OutgoingRequest(headers);
    req.setMethod(init.method === undefined ? { tag: 'get' } : { tag: init.method });
    req.setScheme(u.protocol === 'http:' ? { tag: 'HTTP' } : { tag: 'HTTPS' });
    req.setAuthority(u.host);
    req.setPathWithQuery(u.pathname);
    if (init.body !== undefined) req.body().write().blockingWriteAndFlush(new TextEncoder().encode(init.body));
    const future = handle(req, undefined);
    future.subscribe().block();
    return future.get();
  };
}

function readAll(s: InputStream): string {
  let text = '';
  for (;;) {
    try {
      text += new TextDecoder().decode(s.blockingRead(65536n));
    } catch {
      return text;
    }
  }
}

describe('wasi:http/outgoing-handler under a grant', () => {
  test('an allowed loopback request goes through, with method, headers and body', () => {
    const get = client({ allowHosts: [`http://127.0.0.1:${port}`], allowPrivate: true });
    const res = get(`http://127.0.0.1:${port}/path`, { method: 'post', body: 'payload', header: 'moat' });
    expect(res?.tag).toBe('ok');
    const inner = res?.val;
    if (inner?.tag !== 'ok') throw new Error('expected a response');
    expect(inner.val.status()).toBe(201);
    expect(new TextDecoder().decode(inner.val.headers().get('x-reply')[0])).toBe('ok');
    expect(readAll(inner.val.consume().stream())).toBe('POST /path moat payload');
  });

  test('a host outside the allowlist is refused before anything is sent', async () => {
    const before = await hits();
    const get = client({ allowHosts: ['api.example.com'], allowPrivate: true });
    expect(() => get(`http://127.0.0.1:${port}/`)).toThrow();
    try {
      get(`http://127.0.0.1:${port}/`);
    } catch (e) {
      expect(e).toEqual({ tag: 'HTTP-request-denied' });
    }
    expect(await hits()).toBe(before);
  });

  test.each([['http://10.0.0.1/'], ['http://169.254.169.254/'], ['http://[::1]:9/'], ['http://[::ffff:127.0.0.1]:9/']])('%s is destination-IP-prohibited', (url) => {
    const get = client({ allowHosts: ['*://*:*', 'http://10.0.0.1', 'http://169.254.169.254', 'http://[::1]:9', 'http://[::ffff:127.0.0.1]:9'] });
    let thrown: unknown;
    try {
      get(url);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toEqual({ tag: 'destination-IP-prohibited' });
  });

  test('a name resolving to loopback is refused after resolution', async () => {
    const before = await hits();
    const get = client({ allowHosts: [`http://localhost:${port}`] });
    const res = get(`http://localhost:${port}/`);
    expect(res).toEqual({ tag: 'ok', val: { tag: 'err', val: { tag: 'destination-IP-prohibited' } } });
    expect(await hits()).toBe(before);
  });

  test('no grant: the http interfaces are not provided at all', () => {
    const host = createHost({ args: [], env: {}, preopens: [], ctx: new HostContext(DEFAULT_LIMITS) });
    expect(host.imports['wasi:http/outgoing-handler']).toBeUndefined();
    expect(Object.keys(host.imports).some((k) => k.startsWith('wasi:sockets'))).toBe(false);
  });
});
