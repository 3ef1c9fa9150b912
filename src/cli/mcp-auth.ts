/** Where moat keeps MCP OAuth tokens, and the provider a session uses for a server that has logged in. */
import { join } from 'node:path';
import { moatPaths, type Env } from '../config/index.ts';
import { OAuthStore, sessionAuthProvider, type McpServerConfig, type StoredOAuthProvider } from '../mcp/index.ts';

/** `$XDG_DATA_HOME/moat/mcp-oauth.json`, mode 0600. */
export function oauthStore(env: Env): OAuthStore {
  return new OAuthStore(join(moatPaths(env).dataDir, 'mcp-oauth.json'));
}

export function mcpAuthProvider(server: McpServerConfig, env: Env): StoredOAuthProvider | undefined {
  return server.transport === 'stdio' || server.transport === 'sdk' ? undefined : sessionAuthProvider(oauthStore(env), server.name, server.url);
}
