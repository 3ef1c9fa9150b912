/** Where moat keeps MCP OAuth tokens, and the provider a session uses for a server that has logged in. */
import { join } from 'node:path';
import { moatPaths, type Env } from '../config/index.ts';
import { authKey, OAuthStore, StoredOAuthProvider, type McpServerConfig } from '../mcp/index.ts';

/** `$XDG_DATA_HOME/moat/mcp-oauth.json`, mode 0600. */
export function oauthStore(env: Env): OAuthStore {
  return new OAuthStore(join(moatPaths(env).dataDir, 'mcp-oauth.json'));
}

/**
 * Only a server with stored tokens gets a provider: one that never logged in
 * fails on its 401 with "run moat mcp login", instead of a session quietly
 * registering a client with the authorization server.
 */
export function mcpAuthProvider(server: McpServerConfig, env: Env): StoredOAuthProvider | undefined {
  if (server.transport === 'stdio') return undefined;
  const store = oauthStore(env);
  const key = authKey(server.name, server.url);
  try {
    return store.get(key).tokens === undefined ? undefined : new StoredOAuthProvider(store, key);
  } catch {
    return undefined;
  }
}
