// The two shapes MCP servers are configured in (Claude Code's JSON and Codex's TOML) and the one moat uses.
import { z } from 'zod';
import { once } from '../util/index.ts';

/** Where a server's definition came from; project scopes need the user's approval before anything starts. */
export type ServerScope = 'user' | 'claude-user' | 'project' | 'flag';

/** Per-server OS sandbox grants for a stdio server (on top of the built-in deny list). */
export interface ServerSandbox {
  /** false only from the user's own config: the server runs unsandboxed. */
  enabled: boolean;
  /** Absolute paths the server may write, besides its own temp folder. */
  allowWrite: string[];
  /** Host patterns the server may reach; [] = no network. */
  networkAllow: string[];
}

interface Common {
  name: string;
  scope: ServerScope;
  /** The file (as shown to the user) or "--mcp-config", for messages. */
  origin: string;
  enabled: boolean;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  /** Only these tools are offered (undefined: all). */
  enabledTools: string[] | undefined;
  disabledTools: string[];
  /** Let a tool's readOnlyHint lower it to a read (no permission question, parallel). */
  trustAnnotations: boolean;
  /** Tool results are cut past this many (estimated) tokens. */
  maxOutputTokens: number;
}

export interface StdioServerConfig extends Common {
  transport: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
  sandbox: ServerSandbox;
}

export interface HttpServerConfig extends Common {
  /** 'http' is Streamable HTTP, falling back to the older HTTP+SSE when the server answers that way; 'sse' is SSE only. */
  transport: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  /** Sent as `Authorization: Bearer $VAR` when set. */
  bearerTokenEnvVar: string | undefined;
}

/** A server inside the program that drives moat (the Agent SDK's `createSdkMcpServer`), reached through that program. */
export interface ProgramServerConfig extends Common {
  transport: 'sdk';
}

export type McpServerConfig = StdioServerConfig | HttpServerConfig | ProgramServerConfig;

export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_OUTPUT_TOKENS = 25_000;

/** A server of the driving program, as the SDK names it in initialize's `sdkMcpServers`: the program's own, so started without approval. */
export function programServerConfig(name: string): ProgramServerConfig {
  return {
    name,
    transport: 'sdk',
    scope: 'flag',
    origin: 'the program (SDK)',
    enabled: true,
    startupTimeoutMs: DEFAULT_STARTUP_TIMEOUT_MS,
    toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS,
    enabledTools: undefined,
    disabledTools: [],
    trustAnnotations: false,
    maxOutputTokens: DEFAULT_MAX_OUTPUT_TOKENS,
  };
}

const stringMap = () => z.record(z.string(), z.string());
const nonEmpty = () => z.string().min(1);

/*
 * The entry shapes are built on first use: most runs have no MCP server and
 * never parse with them.
 */

/**
 * Claude Code's entry (`.mcp.json`, `~/.claude.json`, `--mcp-config`). Keys
 * Claude Code adds that moat has no use for are ignored, not errors: the same
 * file serves both programs.
 */
export const claudeEntryShape = once(() =>
  z.union([
    z.object({
      type: z.literal('stdio').optional(),
      command: nonEmpty(),
      args: z.array(z.string()).default([]),
      env: stringMap().default({}),
      cwd: z.string().optional(),
    }),
    z.object({
      type: z.enum(['http', 'sse', 'streamable-http']),
      url: nonEmpty(),
      headers: stringMap().default({}),
    }),
  ]),
);
export type ClaudeEntry = z.infer<ReturnType<typeof claudeEntryShape>>;

export const claudeFileShape = once(() => z.object({ mcpServers: z.record(z.string(), z.unknown()).default({}) }));

/** Codex's `[mcp_servers.<name>]` table, plus moat's own keys (sandbox, trust_annotations, max_output_tokens). */
export const tomlEntryShape = once(() =>
  z.strictObject({
    command: nonEmpty().optional(),
    args: z.array(z.string()).optional(),
    env: stringMap().optional(),
    cwd: z.string().optional(),
    url: nonEmpty().optional(),
    transport: z.enum(['stdio', 'http', 'sse']).optional(),
    bearer_token_env_var: nonEmpty().optional(),
    http_headers: stringMap().optional(),
    startup_timeout_sec: z.number().positive().optional(),
    startup_timeout_ms: z.number().int().positive().optional(),
    tool_timeout_sec: z.number().positive().optional(),
    enabled: z.boolean().optional(),
    enabled_tools: z.array(nonEmpty()).optional(),
    disabled_tools: z.array(nonEmpty()).optional(),
    trust_annotations: z.boolean().optional(),
    max_output_tokens: z.number().int().positive().optional(),
    sandbox: z
      .union([
        z.literal(false),
        z.strictObject({
          allow_write: z.array(nonEmpty()).default([]),
          network_allow: z.array(nonEmpty()).default([]),
        }),
      ])
      .optional(),
  }),
);
export type TomlEntry = z.infer<ReturnType<typeof tomlEntryShape>>;

/** A name `moat mcp add` accepts, as `claude mcp add` does: it is part of tool names (`mcp__<server>__<tool>`) unchanged. */
export const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * A name a config file may give a server. Claude Code takes any name there
 * (`"my.server"`, `"my server"`) and uses it in tool names with every other
 * character than letters, digits, `_` and `-` made `_`; so does moat. Control
 * characters and overlong names are refused: they only garble messages.
 */
export const CONFIG_SERVER_NAME = /^[^\p{Cc}]{1,128}$/u;

/** The server's part of its tool names (`my.server` → `my_server`), as Claude Code makes it. */
export function normalizeServerName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}
