/**
 * HttpRequest against a loopback server (the tool under test is built with the
 * test-only allowPrivate; the shipped one refuses loopback). The reference is
 * curl: for each request the server records what arrived, and the same
 * request sent by curl must arrive the same (method, path and query, body,
 * content type, the caller's headers).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Server } from 'bun';
import { createHttpRequestTool, decidePermission, httpRequestTool, parseRuleList, type PermissionCall } from '../../../src/tools/index.ts';
import { makeContext, removeDir, runTool, tempDir } from '../tool-context.ts';

interface Seen {
  method: string;
  path: string;
  body: string;
  contentType: string | null;
  custom: string | null;
}

let server: Server<undefined>;
let base = '';
let dir = '';
const seen: Seen[] = [];
const tool = createHttpRequestTool({ allowPrivate: true });

beforeAll(() => {
  dir = tempDir();
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      // The query as decoded pairs: percent-encoding may differ in case (%C3 or %c3) and still mean the same.
      seen.push({ method: req.method, path: `${url.pathname} ${JSON.stringify([...url.searchParams])}`, body: await req.text(), contentType: req.headers.get('content-type'), custom: req.headers.get('x-custom') });
      switch (url.pathname) {
        case '/json':
          return Response.json({ ok: true, items: [1, 2] }, { headers: { 'set-cookie': 'session=abc123', 'x-trace': 't-1' } });
        case '/png':
          return new Response(new Uint8Array(2048).fill(7), { headers: { 'content-type': 'image/png' } });
        case '/missing':
          return Response.json({ error: 'nope' }, { status: 404 });
        case '/moved':
          return new Response(null, { status: 302, headers: { location: '/json' } });
        default:
          return new Response(`plain ${req.method}`, { headers: { 'content-type': 'text/plain' } });
      }
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => {
  void server.stop(true);
  removeDir(dir);
});

async function call(input: Record<string, unknown>, t = tool) {
  return runTool(t, input, makeContext(dir));
}

/** What the server saw for one request sent by curl with the same parts. */
async function viaCurl(args: string[]): Promise<Seen> {
  const before = seen.length;
  // Not spawnSync: the server answering curl runs in this process.
  const r = Bun.spawn(['curl', '-s', '-o', '/dev/null', ...args]);
  expect(await r.exited).toBe(0);
  expect(seen.length).toBe(before + 1);
  return seen.at(-1) as Seen;
}

describe('HttpRequest', () => {
  const cases: { name: string; input: Record<string, unknown>; curl: (b: string) => string[] }[] = [
    { name: 'GET with query parameters (encoded)', input: { url: '/q', query: { a: 'x y', b: 2, c: true, 'd&e': 'ü' } }, curl: (b) => ['-G', `${b}/q`, '--data-urlencode', 'a=x y', '--data-urlencode', 'b=2', '--data-urlencode', 'c=true', '--data-urlencode', 'd%26e=ü'] }, // curl's --data-urlencode sends a name as given: give it encoded
    { name: 'POST a JSON body', input: { url: '/items', method: 'POST', json: { name: 'n', tags: ['a'] } }, curl: (b) => ['-X', 'POST', `${b}/items`, '-H', 'content-type: application/json', '--data-raw', '{"name":"n","tags":["a"]}'] },
    { name: 'PUT a text body with a header', input: { url: '/doc', method: 'PUT', body: 'line1\nline2', headers: { 'content-type': 'text/plain', 'x-custom': 'v1' } }, curl: (b) => ['-X', 'PUT', `${b}/doc`, '-H', 'content-type: text/plain', '-H', 'x-custom: v1', '--data-binary', 'line1\nline2'] },
    { name: 'DELETE', input: { url: '/items/3', method: 'DELETE' }, curl: (b) => ['-X', 'DELETE', `${b}/items/3`] },
    { name: 'PATCH with a query on the URL and in query', input: { url: '/p?x=1', method: 'PATCH', query: { y: '2' }, json: [1] }, curl: (b) => ['-X', 'PATCH', `${b}/p?x=1&y=2`, '-H', 'content-type: application/json', '--data-raw', '[1]'] },
  ];
  for (const c of cases) {
    test(`${c.name}: arrives as curl's does`, async () => {
      const before = seen.length;
      const r = await call({ ...c.input, url: `${base}${c.input.url as string}` });
      expect(r.isError).toBeUndefined();
      expect(seen.length).toBe(before + 1);
      const ours = seen.at(-1) as Seen;
      expect(ours).toEqual(await viaCurl(c.curl(base)));
    });
  }

  test('the result: status, headers (secrets masked), JSON pretty-printed', async () => {
    const r = await call({ url: `${base}/json` });
    const text = String(r.content);
    expect(text).toStartWith(`GET ${base}/json\nStatus: 200 OK\n`);
    expect(text).toContain('set-cookie: ***');
    expect(text).not.toContain('abc123');
    expect(text).toContain('x-trace: t-1');
    expect(text).toEndWith('\n\n{\n  "ok": true,\n  "items": [\n    1,\n    2\n  ]\n}');
  });

  test('binary bodies are described, 4xx is an error result, redirects are returned not followed, HEAD has no body', async () => {
    expect(String((await call({ url: `${base}/png` })).content)).toEndWith('(binary body: image/png, 2.0 KB; not returned)');
    const missing = await call({ url: `${base}/missing` });
    expect(missing.isError).toBe(true);
    expect(String(missing.content)).toContain('Status: 404');
    const moved = await call({ url: `${base}/moved` });
    expect(String(moved.content)).toMatch(/Status: 302[^\n]*\n(.*\n)*location: \/json/);
    expect(String((await call({ url: `${base}/json`, method: 'HEAD' })).content)).toEndWith('(no body)');
  });

  test('bad input is an error result: both body and json, a body on GET, a non-http URL; the shipped tool refuses loopback and metadata', async () => {
    expect((await call({ url: `${base}/x`, method: 'POST', body: 'a', json: {} })).content).toContain('give body or json, not both');
    expect((await call({ url: `${base}/x`, body: 'a' })).content).toBe('GET requests have no body: use POST, PUT or PATCH, or send the data as query parameters.');
    expect((await call({ url: 'file:///etc/passwd' })).content).toBe('file:///etc/passwd: only http:// and https:// URLs can be requested.');
    expect((await call({ url: `${base}/json` }, httpRequestTool)).content).toBe(`GET ${base}/json failed: 127.0.0.1 is a loopback address; only public addresses are reachable.`);
    expect((await call({ url: 'http://169.254.169.254/latest/meta-data', method: 'POST' }, httpRequestTool)).content).toContain('cloud metadata address');
  });

  test('permissions: GET goes by WebFetch(domain:…) rules, a POST needs its own HttpRequest rule; secrets are masked in the summary', async () => {
    const policy = { mode: 'default' as const, allow: parseRuleList(['WebFetch(domain:api.example.com)']), deny: [], roots: [dir], projectRoot: dir, home: '/home/u' };
    const pc = (input: Record<string, unknown>): PermissionCall => ({ toolName: 'HttpRequest', effect: 'network', intent: httpRequestTool.intent(input as never, { cwd: dir, roots: [dir] }) });
    const get = pc({ url: 'https://api.example.com/v1/items', method: 'GET', headers: { Authorization: 'Bearer sk-live-123', 'X-Api-Key': 'k-9' }, query: { token: 't0ps3cret' } });
    expect((await decidePermission(get, policy)).kind).toBe('allow');
    expect(get.intent.summary).toBe('GET https://api.example.com/v1/items?token=*** {"Authorization":"Bearer ***","X-Api-Key":"***"}');
    const post = pc({ url: 'https://api.example.com/v1/items', method: 'POST', json: {} });
    expect(post.intent).toMatchObject({ ruleName: 'HttpRequest', subject: 'POST https://api.example.com/v1/items' });
    expect((await decidePermission(post, policy)).kind).toBe('ask');
    expect((await decidePermission(post, { ...policy, allow: parseRuleList(['HttpRequest(POST https://api.example.com/*)']) })).kind).toBe('allow');
    expect((await decidePermission(post, { ...policy, allow: parseRuleList(['HttpRequest(DELETE https://api.example.com/*)']) })).kind).toBe('ask');
    expect((await decidePermission(get, { ...policy, deny: parseRuleList(['WebFetch(domain:*.example.com)']) })).kind).toBe('deny');
  });
});
