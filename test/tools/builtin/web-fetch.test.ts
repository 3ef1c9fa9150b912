import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Server } from 'bun';
import { createWebFetchTool, decidePermission, denialHint, parseRuleList, webFetchTool, type Decision, type PermissionCall } from '../../../src/tools/index.ts';
import { makeContext, removeDir, runTool, tempDir } from '../tool-context.ts';

/**
 * web_fetch against a loopback server. Loopback is a private address, so the
 * tool under test is built with the test-only `allowPrivate`; the shipped
 * tool refuses it, and no test ever sends traffic beyond 127.0.0.1.
 */

let server: Server<undefined>;
let base = '';
let dir = '';
const fetchTool = createWebFetchTool({ allowPrivate: true, maxBytes: 1024 * 1024 });

beforeAll(() => {
  dir = tempDir();
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      const port = server.port;
      switch (path) {
        case '/page':
          return new Response('<!doctype html><html><head><title>T</title><style>p{}</style></head><body><h1>Title</h1><p>Some <b>bold</b> text and <a href="/x">a link</a>.</p><script>alert(1)</script></body></html>', { headers: { 'content-type': 'text/html; charset=utf-8' } });
        case '/data.json':
          return Response.json({ a: 1 });
        case '/image.png':
          return new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]), { headers: { 'content-type': 'image/png' } });
        case '/hop1':
          return Response.redirect(`http://127.0.0.1:${port}/hop2`, 302);
        case '/hop2':
          return new Response(null, { status: 301, headers: { location: '/page' } });
        case '/to-metadata':
          return Response.redirect('http://169.254.169.254/latest/meta-data/', 302);
        case '/to-file':
          return new Response(null, { status: 302, headers: { location: 'file:///etc/passwd' } });
        case '/to-other-host':
          return Response.redirect(`http://localhost:${port}/page`, 307);
        case '/loop':
          return Response.redirect(`http://127.0.0.1:${port}/loop`, 302);
        case '/big':
          return new Response('x'.repeat(2 * 1024 * 1024), { headers: { 'content-type': 'text/plain' } });
        case '/long':
          return new Response('y'.repeat(5000), { headers: { 'content-type': 'text/plain' } });
        default:
          return new Response('nope', { status: 404, headers: { 'content-type': 'text/plain' } });
      }
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(async () => {
  await server.stop(true);
  removeDir(dir);
});

const call = (input: unknown, tool = fetchTool) => runTool(tool, input, makeContext(dir));

describe('web_fetch', () => {
  test('HTML becomes Markdown; scripts and styles are dropped; the final URL is reported', async () => {
    expect(await call({ url: `${base}/page` })).toEqual({
      content: `URL: ${base}/page\nStatus: 200 OK\nContent-Type: text/html; charset=utf-8 (converted to Markdown)\n\n# Title\n\nSome **bold** text and [a link](/x).`,
      display: { type: 'text', text: `200 ${base}/page · 45 chars` },
    });
  });

  test('other text is returned as it is; binary is refused; errors carry the status', async () => {
    expect((await call({ url: `${base}/data.json` })).content).toBe(`URL: ${base}/data.json\nStatus: 200 OK\nContent-Type: application/json;charset=utf-8\n\n{"a":1}`);
    const bin = await call({ url: `${base}/image.png` });
    expect(bin.isError).toBe(true);
    expect(bin.content).toContain('Refused: binary content (image/png, 7 bytes) is not returned');
    const missing = await call({ url: `${base}/missing` });
    expect(missing.isError).toBe(true);
    expect(missing.content).toContain('Status: 404 Not Found');
  });

  test('redirects on the same host are followed, each hop checked, the final URL reported', async () => {
    const r = await call({ url: `${base}/hop1` });
    expect(r.isError).toBeUndefined();
    expect(String(r.content).split('\n')[0]).toBe(`URL: ${base}/page`);
  });

  test('a redirect to a refused address or scheme is refused; to another host it is reported, not followed', async () => {
    expect(await call({ url: `${base}/to-metadata` })).toEqual({
      content: `${base}/to-metadata redirected to http://169.254.169.254/latest/meta-data/, which is refused: 169.254.169.254 is a cloud metadata address, which is never reachable.`,
      isError: true,
    });
    expect(await call({ url: `${base}/to-file` })).toEqual({
      content: `${base}/to-file redirected to file:///etc/passwd, which is refused: file: URLs are not allowed; only http and https.`,
      isError: true,
    });
    const other = await call({ url: `${base}/to-other-host` });
    expect(other.isError).toBeUndefined();
    expect(other.content).toBe(
      `${base}/to-other-host redirects (307) to another host: http://localhost:${server.port}/page\nIt was not followed, because permission covers 127.0.0.1 only. Call web_fetch with that URL if you need it.`,
    );
  });

  test('redirect loops stop after 5 hops; size and length are capped', async () => {
    expect((await call({ url: `${base}/loop` })).content).toBe(`Too many redirects (more than 5) starting at ${base}/loop; last: ${base}/loop.`);
    expect((await call({ url: `${base}/big` })).content).toBe(`Cannot fetch ${base}/big: response from 127.0.0.1:${server.port} is over the 1048576-byte limit.`);
    const long = await call({ url: `${base}/long`, max_length: 1000 });
    expect(String(long.content)).toEndWith(`${'y'.repeat(1000)}\n\n[… truncated: 4000 more characters. Fetch a more specific URL for the rest.]`);
  });

  test('the shipped tool refuses loopback, private and metadata addresses before sending anything', async () => {
    expect(await call({ url: `${base}/page` }, webFetchTool)).toEqual({
      content: `Cannot fetch ${base}/page: 127.0.0.1 is a loopback address; only public addresses are reachable.`,
      isError: true,
    });
    expect((await call({ url: 'http://169.254.169.254/' }, webFetchTool)).content).toBe(
      'Cannot fetch http://169.254.169.254/: 169.254.169.254 is a cloud metadata address, which is never reachable.',
    );
    expect((await call({ url: 'http://[::1]:9/' }, webFetchTool)).content).toContain('loopback');
    expect((await call({ url: 'not a url' }, webFetchTool)).content).toBe('not a url is not a valid URL: give a full http:// or https:// URL.');
  });

  test('intent and permissions: WebFetch rules by host; in -p mode the hint names WebFetch(domain:host)', async () => {
    const intent = webFetchTool.intent({ url: 'https://Docs.Example.com/a?b=1' }, { cwd: dir, roots: [dir] });
    expect(intent).toEqual({ ruleName: 'WebFetch', subject: 'docs.example.com', paths: [], summary: 'fetch https://Docs.Example.com/a?b=1' });
    const pc: PermissionCall = { toolName: 'web_fetch', effect: 'network', intent };
    const policy = { mode: 'default' as const, allow: [], deny: [], roots: [dir], projectRoot: dir, home: '/home/u' };
    const asked = await decidePermission(pc, policy);
    expect(asked.kind).toBe('ask');
    expect(denialHint(pc, asked as Exclude<Decision, { kind: 'allow' }>)).toBe(
      'Permission denied: fetching from docs.example.com needs approval, and moat -p cannot ask. To allow it, re-run with --allowedTools "WebFetch(domain:docs.example.com)" (or "WebFetch"), or add the rule to [permissions] allow in .moat/config.toml.',
    );
    expect((await decidePermission(pc, { ...policy, allow: parseRuleList(['WebFetch(domain:docs.example.com)']) })).kind).toBe('allow');
    expect((await decidePermission(pc, { ...policy, allow: parseRuleList(['WebFetch(domain:other.com)']) })).kind).toBe('ask');
  });
});
