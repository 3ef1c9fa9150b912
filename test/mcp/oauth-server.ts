/**
 * A local OAuth 2.1 authorization server and a protected MCP server for the
 * tests, built from the SDK's own server-side auth (mcpAuthRouter,
 * requireBearerAuth): dynamic registration, PKCE, short-lived access tokens,
 * refresh tokens. Authorization is granted at once (no login page).
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import express, { type Response } from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { mcpAuthRouter, getOAuthProtectedResourceMetadataUrl } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import { InvalidTokenError, InvalidGrantError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthServerProvider, AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export interface OAuthTestServer {
  url: string;
  mcpUrl: string;
  /** How many times a refresh token was exchanged. */
  refreshes: number;
  /** Access tokens issued, in order. */
  issued: string[];
  close(): Promise<void>;
}

export async function startOAuthServer(accessTtlSeconds: number): Promise<OAuthTestServer> {
  const clients = new Map<string, OAuthClientInformationFull>();
  const codes = new Map<string, { client: string; params: AuthorizationParams }>();
  const access = new Map<string, { client: string; expiresAt: number }>();
  const refresh = new Map<string, string>();
  const state: OAuthTestServer = { url: '', mcpUrl: '', refreshes: 0, issued: [], close: async () => undefined };

  const clientsStore: OAuthRegisteredClientsStore = {
    getClient: (id) => clients.get(id),
    registerClient: (c) => {
      const full = { ...c, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) } as OAuthClientInformationFull;
      clients.set(full.client_id, full);
      return full;
    },
  };
  const issue = (client: string): OAuthTokens => {
    const token = `at-${randomUUID()}`;
    const rt = `rt-${randomUUID()}`;
    access.set(token, { client, expiresAt: Date.now() + accessTtlSeconds * 1000 });
    refresh.set(rt, client);
    state.issued.push(token);
    return { access_token: token, token_type: 'bearer', expires_in: accessTtlSeconds, refresh_token: rt };
  };
  const provider: OAuthServerProvider = {
    clientsStore,
    async authorize(client, params, res: Response) {
      const code = randomUUID();
      codes.set(code, { client: client.client_id, params });
      const target = new URL(params.redirectUri);
      target.searchParams.set('code', code);
      if (params.state !== undefined) target.searchParams.set('state', params.state);
      res.redirect(target.href);
    },
    async challengeForAuthorizationCode(_client, code) {
      const c = codes.get(code);
      if (c === undefined) throw new InvalidGrantError('unknown code');
      return c.params.codeChallenge;
    },
    async exchangeAuthorizationCode(client, code) {
      const c = codes.get(code);
      if (c === undefined || c.client !== client.client_id) throw new InvalidGrantError('bad code');
      codes.delete(code);
      return issue(client.client_id);
    },
    async exchangeRefreshToken(client, refreshToken) {
      if (refresh.get(refreshToken) !== client.client_id) throw new InvalidGrantError('bad refresh token');
      refresh.delete(refreshToken);
      state.refreshes++;
      return issue(client.client_id);
    },
    async verifyAccessToken(token): Promise<AuthInfo> {
      const a = access.get(token);
      if (a === undefined || a.expiresAt < Date.now()) throw new InvalidTokenError('expired or unknown token');
      return { token, clientId: a.client, scopes: [], expiresAt: Math.floor(a.expiresAt / 1000) };
    },
  };

  const app = express();
  const server: Server = await new Promise((res) => {
    const s = app.listen(0, '127.0.0.1', () => res(s));
  });
  const port = (server.address() as { port: number }).port;
  const base = new URL(`http://localhost:${port}`);
  const mcpUrl = new URL('/mcp', base);
  state.url = base.href;
  state.mcpUrl = mcpUrl.href;
  app.use(mcpAuthRouter({ provider, issuerUrl: base, resourceServerUrl: mcpUrl }));
  app.post('/mcp', express.json(), requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) }), async (req, res) => {
    const mcp = new McpServer({ name: 'protected', version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'The caller' }, async (extra) => ({ content: [{ type: 'text', text: `client ${extra.authInfo?.clientId ?? '?'}` }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  state.close = () => new Promise((res) => server.close(() => res()));
  return state;
}
