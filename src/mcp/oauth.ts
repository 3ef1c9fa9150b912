// OAuth 2.1 for remote MCP servers on the SDK's auth support: tokens kept in one moat file (mode 0600), login by browser.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { dirname } from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { errorMessage } from '../util/index.ts';
import { policyFetchFor, serverGrant, type FetchLike } from './policy-fetch.ts';
import { loadSdk } from './sdk.ts';

/** What is stored per server (keyed by name and URL, so a server that moves logs in again). */
interface StoredAuth {
  clientInformation?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  codeVerifier?: string;
  redirectUrl?: string;
  /** Hosts the login talked to (authorization server, token endpoint): a session may reach them to refresh. */
  authHosts?: string[];
  /** The scope a session's server last asked for (a step-up): the next login asks for it. */
  wantedScope?: string;
}

type AuthFile = Record<string, StoredAuth>;

export class OAuthStore {
  constructor(readonly file: string) {}

  private readAll(): AuthFile {
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as AuthFile;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new Error(`${this.file}: ${errorMessage(e)}; delete it and log in again`);
    }
  }

  /** Write-then-rename, mode 0600 from the first byte: the file holds bearer tokens. */
  private writeAll(data: AuthFile): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }

  get(key: string): StoredAuth {
    return this.readAll()[key] ?? {};
  }

  update(key: string, change: (s: StoredAuth) => StoredAuth | undefined): void {
    const all = this.readAll();
    const next = change(all[key] ?? {});
    if (next === undefined) delete all[key];
    else all[key] = next;
    this.writeAll(all);
  }
}

export function authKey(server: string, url: string): string {
  return `${server}|${url}`;
}

/**
 * The SDK's OAuthClientProvider over the store. Without `onRedirect` (a
 * normal session) a server that needs a new login fails with the SDK's
 * UnauthorizedError and the status says to run `moat mcp login`; expired
 * access tokens are refreshed by the SDK with the stored refresh token.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  constructor(
    private readonly store: OAuthStore,
    private readonly key: string,
    private readonly o: { redirectUrl?: string; onRedirect?: (url: URL) => void | Promise<void>; clientName?: string } = {},
  ) {}

  /** Where refreshing may need to go, besides the server itself. */
  authHosts(): string[] {
    return this.store.get(this.key).authHosts ?? [];
  }

  get redirectUrl(): string | undefined {
    return this.o.redirectUrl ?? this.store.get(this.key).redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const redirect = this.redirectUrl;
    return {
      client_name: this.o.clientName ?? 'moat',
      redirect_uris: redirect === undefined ? [] : [redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.store.get(this.key).clientInformation;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.store.update(this.key, (s) => ({ ...s, clientInformation: info, ...(this.o.redirectUrl === undefined ? {} : { redirectUrl: this.o.redirectUrl }) }));
  }

  tokens(): OAuthTokens | undefined {
    return this.store.get(this.key).tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.store.update(this.key, (s) => ({ ...s, tokens }));
  }

  async redirectToAuthorization(url: URL): Promise<void> {
    if (this.o.onRedirect === undefined) {
      // A session: the SDK then throws UnauthorizedError ("run moat mcp login"); the scope it wanted waits for that login.
      const scope = url.searchParams.get('scope');
      if (scope !== null) this.store.update(this.key, (s) => ({ ...s, wantedScope: scope }));
      return;
    }
    await this.o.onRedirect(url);
  }

  saveCodeVerifier(codeVerifier: string): void {
    this.store.update(this.key, (s) => ({ ...s, codeVerifier }));
  }

  codeVerifier(): string {
    const v = this.store.get(this.key).codeVerifier;
    if (v === undefined) throw new Error('no PKCE code verifier saved: start the login again');
    return v;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    this.store.update(this.key, (s) => {
      if (scope === 'all') return undefined;
      const out = { ...s };
      if (scope === 'client') delete out.clientInformation;
      if (scope === 'tokens') delete out.tokens;
      if (scope === 'verifier') delete out.codeVerifier;
      return out;
    });
  }
}

/**
 * The provider a session uses: only for a server with stored tokens. One
 * that never logged in fails on its 401 with "run moat mcp login", instead of
 * a session quietly registering a client with the authorization server.
 */
export function sessionAuthProvider(store: OAuthStore, server: string, url: string): StoredOAuthProvider | undefined {
  const key = authKey(server, url);
  try {
    return store.get(key).tokens === undefined ? undefined : new StoredOAuthProvider(store, key);
  } catch {
    return undefined;
  }
}

/** A one-shot loopback server that receives the authorization code. */
async function callbackServer(): Promise<{ url: string; code: Promise<string>; close(): void }> {
  let resolveCode!: (c: string) => void;
  let rejectCode!: (e: Error) => void;
  const code = new Promise<string>((res, rej) => {
    resolveCode = res;
    rejectCode = rej;
  });
  // Imported on login only: node:http costs every start-up ~2-3 ms.
  const { createServer } = await import('node:http');
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (u.pathname !== '/callback') {
      res.writeHead(404).end();
      return;
    }
    const c = u.searchParams.get('code');
    const error = u.searchParams.get('error');
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(c !== null ? 'moat: logged in. You can close this tab.' : `moat: login failed: ${error ?? 'no code'}`);
    if (c !== null) resolveCode(c);
    else rejectCode(new Error(`the authorization server refused: ${error ?? 'no code in the callback'}`));
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/callback`, code, close: () => server.close() };
}

export interface LoginOptions {
  store: OAuthStore;
  server: string;
  url: string;
  /** Shows or opens the authorization URL (the CLI opens a browser, or prints it). */
  open(url: URL): void | Promise<void>;
  /** How long to wait for the browser, default 5 minutes. */
  timeoutMs?: number;
}

/**
 * The login's fetch: web_fetch's network policy (addresses checked, the
 * checked one connected to, cloud metadata never) for every host the flow is
 * sent to — the authorization server is whichever the MCP server names, so
 * any host. Private and loopback addresses are refused unless the MCP server
 * itself is configured on one (a local setup, as for its session): a public
 * server cannot point the login, and the token it carries, into the user's
 * network.
 */
export function loginFetch(serverUrl: string): FetchLike {
  const allowPrivate = serverGrant(serverUrl).allowPrivate === true;
  return (url, init) => policyFetchFor({ allowHosts: serverGrant(String(url)).allowHosts, allowPrivate })(url, init);
}

/**
 * What the server's 401 says about its authorization: where its protected
 * resource metadata is (when not at the well-known place) and which scope to
 * ask for. Read from an `initialize` request's WWW-Authenticate header, as a
 * session would meet it; nothing when the server does not answer 401.
 */
async function challengeOf(url: string, fetchFn: FetchLike): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  try {
    const res = await fetchFn(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'moat', version: '0' } } }),
    });
    await res.body?.cancel();
    if (res.status !== 401) return {};
    const p = (await loadSdk()).extractWWWAuthenticateParams(res);
    return { ...(p.resourceMetadataUrl === undefined ? {} : { resourceMetadataUrl: p.resourceMetadataUrl }), ...(p.scope === undefined ? {} : { scope: p.scope }) };
  } catch {
    // An unreachable server: discovery below says so in its own words.
    return {};
  }
}

/** `moat mcp login`: the authorization-code flow with PKCE and dynamic registration, tokens saved on success. */
export async function login(o: LoginOptions): Promise<void> {
  const key = authKey(o.server, o.url);
  // Read before the registration is reset below: the scope a session's server asked for.
  const wanted = o.store.get(key).wantedScope;
  const cb = await callbackServer();
  try {
    // A new loopback port each time: drop a registration made for an older redirect URL.
    o.store.update(key, (s) => (s.redirectUrl === cb.url ? s : { ...(s.tokens === undefined ? {} : { tokens: s.tokens }) }));
    const provider = new StoredOAuthProvider(o.store, key, { redirectUrl: cb.url, onRedirect: o.open });
    const hosts = new Set<string>();
    const base = loginFetch(o.url);
    const fetchOpt = {
      fetchFn: (url: string | URL, init?: RequestInit) => {
        hosts.add(new URL(String(url)).hostname);
        return base(url, init);
      },
    };
    const remember = () =>
      o.store.update(key, (s) => {
        const { wantedScope: _asked, ...rest } = s;
        return { ...rest, authHosts: [...hosts].filter((h) => h !== new URL(o.url).hostname) };
      });
    const { auth } = await loadSdk();
    const probed = await challengeOf(o.url, fetchOpt.fetchFn);
    const challenge = wanted === undefined ? probed : { ...probed, scope: wanted };
    const first = await auth(provider, { serverUrl: o.url, ...challenge, ...fetchOpt });
    if (first === 'AUTHORIZED') {
      remember();
      return;
    }
    const timeoutMs = o.timeoutMs ?? 300_000;
    const code = await Promise.race([
      cb.code,
      new Promise<never>((_, rej) => setTimeout(() => rej(new Error(`no answer from the browser within ${timeoutMs / 1000} s`)), timeoutMs).unref()),
    ]);
    const second = await auth(provider, { serverUrl: o.url, authorizationCode: code, ...challenge, ...fetchOpt });
    if (second !== 'AUTHORIZED') throw new Error('the authorization server did not issue a token');
    remember();
  } finally {
    cb.close();
  }
}

/** `moat mcp logout`: forget the server's tokens and registration. */
export function logout(store: OAuthStore, server: string, url: string): boolean {
  const had = Object.keys(store.get(authKey(server, url))).length > 0;
  store.update(authKey(server, url), () => undefined);
  return had;
}
