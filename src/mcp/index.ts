/** The MCP client: configured servers become tools (mcp__<server>__<tool>), stdio servers run inside the OS sandbox. */
export { loadServers, type ServerSources, type LoadedServers } from './load-servers.ts';
export { mayDefineServers } from './config-probe.ts';
/**
 * The server loader, required on first use so that attaching stays
 * synchronous: a run with no MCP config (mayDefineServers) never loads it.
 */
export const serverLoader = (): typeof import('./load-servers.ts') => require('./load-servers.ts') as typeof import('./load-servers.ts');
export {
  DEFAULT_STARTUP_TIMEOUT_MS,
  DEFAULT_TOOL_TIMEOUT_MS,
  DEFAULT_MAX_OUTPUT_TOKENS,
  SERVER_NAME,
  programServerConfig,
  type ProgramServerConfig,
  type McpServerConfig,
  type StdioServerConfig,
  type HttpServerConfig,
  type ServerScope,
  type ServerSandbox,
} from './server-config.ts';
export { McpManager, type ServerStatus, type ManagerOptions } from './manager.ts';
export { fileToolListCache, cacheKey, type ToolListCache, type CachedToolList } from './tool-list-cache.ts';
export { McpConnection, McpCallError, type ServerState, type ConnectionOptions } from './connection.ts';
export { mcpToolName, mcpTool } from './mcp-tool.ts';
export { mapToolResult } from './tool-result.ts';
export { LIST_RESOURCES_TOOL, READ_RESOURCE_TOOL, resourceContent } from './resource-tools.ts';
export { serverPolicy, DEFAULT_SERVER_SANDBOX, type LaunchOptions, type ServerSandboxSettings } from './transports.ts';
export { serverGrant, policyFetchFor, NetworkRefusedError } from './policy-fetch.ts';
export { expandVars, MissingVariableError } from './expand-vars.ts';
export { OAuthStore, StoredOAuthProvider, authKey, login, loginFetch, logout, sessionAuthProvider, type LoginOptions } from './oauth.ts';
export { promptCommandName, promptArguments, promptText, resourceText, PromptUsageError } from './user-references.ts';
