/** OAuth 2.1 against a local authorization server: login (PKCE, dynamic registration), tokens in a 0600 file, refresh when the access token expires. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { authKey, DEFAULT_SERVER_SANDBOX, login, loginFetch, logout, McpManager, NetworkRefusedError, OAuthStore, sessionAuthProvider } from '../../src/mcp/index.ts';
import type { AnyTool } from '../../src/tools/index.ts';
import { startOAuthServer, type OAuthTestServer } from './oauth-server.ts';
import { httpServer, toolContext } from './support.ts';
import { tempDir } from '../support/temp.ts';

let as: OAuthTestServer;
let dir: string;
let store: OAuthStore;

beforeAll(async () => {
  as = await startOAuthServer(1);
  dir = tempDir('moat-mcp-oauth-');
  store = new OAuthStore(join(dir, 'data', 'mcp-oauth.json'));
});
afterAll(async () => {
  await as.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The "browser": follows the authorization URL to its redirect, then delivers the code to moat's loopback callback. */
async function browser(url: URL): Promise<void> {
  const res = await fetch(url, { redirect: 'manual' });
  const location = res.headers.get('location');
  if (location === null) throw new Error(`no redirect from ${url.href}: ${res.status}`);
  await fetch(location);
}

function connect(): McpManager {
  const server = httpServer('secure', as.mcpUrl);
  return new McpManager([server], {
    launch: { cwd: dir, env: {}, sandbox: DEFAULT_SERVER_SANDBOX },
    roots: [dir],
    clientVersion: '0.0.0-test',
    authProvider: (s) => (s.transport === 'stdio' || s.transport === 'sdk' ? undefined : sessionAuthProvider(store, s.name, s.url)),
  });
}

describe('OAuth for remote MCP servers', () => {
  test('without a login the server asks for one', async () => {
    const m = connect();
    try {
      m.startAll();
      await m.settled();
      expect(m.status()[0]?.state).toEqual({ status: 'needs-auth', error: 'needs login: run moat mcp login secure' });
    } finally {
      await m.close();
    }
  });

  test('login: the browser flow stores tokens in a file only the user can read', async () => {
    const opened: string[] = [];
    await login({ store, server: 'secure', url: as.mcpUrl, open: async (u) => {
      opened.push(u.href);
      await browser(u);
    } });
    expect(opened).toHaveLength(1);
    const authorize = new URL(opened[0] as string);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    const saved = store.get(authKey('secure', as.mcpUrl));
    expect(saved.tokens?.access_token).toBe(as.issued[0]);
    expect(saved.tokens?.refresh_token).toMatch(/^rt-/);
  });

  test('a session uses the token, and refreshes it when it has expired', async () => {
    const m = connect();
    try {
      m.startAll();
      await m.settled();
      expect(m.status()[0]?.state).toEqual({ status: 'connected' });
      const whoami = m.tools().find((t) => t.name === 'mcp__secure__whoami') as AnyTool;
      expect(String((await whoami.execute({}, toolContext())).content)).toMatch(/^client [0-9a-f-]{36}$/);
      const before = as.refreshes;
      await Bun.sleep(1100); // the access token lives one second
      expect(String((await whoami.execute({}, toolContext())).content)).toMatch(/^client /);
      expect(as.refreshes).toBe(before + 1);
      expect(store.get(authKey('secure', as.mcpUrl)).tokens?.access_token).toBe(as.issued.at(-1));
    } finally {
      await m.close();
    }
  });

  test("login goes through the network policy: a public server's login may not reach the user's network; metadata addresses never", async () => {
    const local = as.url.replace('localhost', '127.0.0.1');
    const metadata = `${local}.well-known/oauth-authorization-server`;
    expect((await loginFetch(as.mcpUrl)(metadata)).status).toBe(200);
    await expect(loginFetch('https://mcp.example.com/mcp')(metadata)).rejects.toThrow(NetworkRefusedError);
    await expect(loginFetch('https://mcp.example.com/mcp')(metadata)).rejects.toThrow(/loopback address; only public addresses are reachable/);
    await expect(loginFetch(as.mcpUrl)('http://169.254.169.254/latest')).rejects.toThrow(/cloud metadata address, which is never reachable/);
  });

  test('a server naming an authorization server on a metadata address: login stops there, saying so', async () => {
    const srv = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: (req): Response => {
        const base: string = `http://127.0.0.1:${srv.port}`;
        if (new URL(req.url).pathname.startsWith('/.well-known/oauth-protected-resource')) return Response.json({ resource: `${base}/mcp`, authorization_servers: ['http://169.254.169.254/'] });
        return new Response('log in', { status: 401, headers: { 'www-authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"` } });
      },
    });
    try {
      const opened: URL[] = [];
      await expect(login({ store, server: 'lure', url: `http://127.0.0.1:${srv.port}/mcp`, open: (u) => void opened.push(u), timeoutMs: 2000 })).rejects.toThrow(
        '169.254.169.254 is a cloud metadata address, which is never reachable',
      );
      expect(opened).toEqual([]);
    } finally {
      await srv.stop(true);
    }
  });

  test('logout forgets the tokens', () => {
    expect(logout(store, 'secure', as.mcpUrl)).toBe(true);
    expect(store.get(authKey('secure', as.mcpUrl))).toEqual({});
    expect(logout(store, 'secure', as.mcpUrl)).toBe(false);
  });
});
