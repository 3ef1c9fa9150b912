/** Shared pieces of the MCP tests: server configs for real npm servers, a manager, and a tool context. */
import { resolve } from 'node:path';
import { DEFAULT_SERVER_SANDBOX, McpManager, type LaunchOptions, type McpServerConfig, type StdioServerConfig, type HttpServerConfig } from '../../src/mcp/index.ts';
import type { ToolContext, ToolDisplay } from '../../src/tools/index.ts';

export const NODE_MODULES = resolve(import.meta.dir, '../../node_modules');
export const EVERYTHING_JS = resolve(NODE_MODULES, '@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM_JS = resolve(NODE_MODULES, '@modelcontextprotocol/server-filesystem/dist/index.js');

const COMMON = {
  scope: 'flag' as const,
  origin: 'test',
  enabled: true,
  startupTimeoutMs: 20_000,
  toolTimeoutMs: 20_000,
  enabledTools: undefined,
  disabledTools: [],
  trustAnnotations: false,
  maxOutputTokens: 25_000,
};

export function stdioServer(name: string, command: string, args: string[], over: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return { ...COMMON, name, transport: 'stdio', command, args, env: {}, cwd: undefined, sandbox: { enabled: true, allowWrite: [], networkAllow: [] }, ...over };
}

export function httpServer(name: string, url: string, over: Partial<HttpServerConfig> = {}): HttpServerConfig {
  return { ...COMMON, name, transport: 'http', url, headers: {}, bearerTokenEnvVar: undefined, ...over };
}

/** server-everything over stdio, run by this Bun. */
export function everything(over: Partial<StdioServerConfig> = {}): StdioServerConfig {
  return stdioServer('everything', process.execPath, [EVERYTHING_JS, 'stdio'], over);
}

export function manager(servers: McpServerConfig[], cwd = process.cwd(), extra: { failures?: string[]; notices?: string[]; roots?: string[]; launch?: Partial<LaunchOptions> } = {}): McpManager {
  return new McpManager(servers, {
    launch: { cwd, env: process.env, sandbox: DEFAULT_SERVER_SANDBOX, ...extra.launch },
    roots: extra.roots ?? [cwd],
    clientVersion: '0.0.0-test',
    onFailure: (name, error) => extra.failures?.push(`${name}: ${error}`),
    onNotice: (name, line) => extra.notices?.push(`${name}: ${line}`),
  });
}

export function toolContext(signal: AbortSignal = new AbortController().signal, updates: ToolDisplay[] = []): ToolContext {
  return {
    cwd: process.cwd(),
    roots: [process.cwd()],
    approvedPaths: [],
    signal,
    sessionId: 'test-session',
    toolUseId: 'toolu_test',
    files: { markRead: () => undefined, wasRead: () => false },
    todos: { get: () => [], set: () => undefined },
    bashTimeoutMs: 120_000,
    onUpdate: (d) => updates.push(d),
  };
}
