/** The zod shape of a config file: the single source of its keys and types. */
import { z } from 'zod';
import { HOOK_EVENTS, HOOKS_SHAPE } from './hooks-config.ts';
import { KEYMAP_ACTIONS, KEYMAP_SHAPE } from './keymap.ts';

/**
 * The shape of one config file (user or project), as written in TOML:
 * snake_case keys, every key optional, unknown keys rejected. Defaults are
 * applied after merging (see load-config.ts), not here, so a file only ever
 * says what it sets.
 *
 * Adding a section later (`[keymap]` for the TUI, `[tools.<name>]` limits for
 * WASM tools, `[sandbox]`): add its strict schema to FILE_SHAPE, its merge rule
 * and camelCase field in load-config.ts, and remove its name from
 * RESERVED_SECTIONS. Until then those sections are errors, like any unknown key.
 */

export const PERMISSION_MODES = ['default', 'acceptEdits', 'plan', 'bypassPermissions', 'dontAsk'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** Sections planned but not implemented; named in the error so users know it is not a typo. */
export const RESERVED_SECTIONS: readonly string[] = [];

export const DEFAULT_MODEL = 'claude-sonnet-4-5';
export const DEFAULT_MAX_TOKENS = 32_000;
export const DEFAULT_STREAM_IDLE_TIMEOUT_S = 90;
export const DEFAULT_BASH_TIMEOUT_S = 120;
/** The API's lower bound for an extended-thinking budget. */
export const MIN_THINKING_BUDGET = 1024;

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/** A rule string such as `Bash(npm test:*)`; parsed elsewhere (tools/permissions), kept verbatim here. */
const rule = z.string().trim().min(1);

export const PERMISSIONS_SHAPE = z.strictObject({
  allow: z.array(rule).optional(),
  deny: z.array(rule).optional(),
  /** Always asked, even when an allow rule or the mode would allow (deny rules still win). */
  ask: z.array(rule).optional(),
});

/** `[tools.<name>] retry`: how often and how patiently an idempotent tool's passing failures are tried again. */
export const TOOL_RETRY_SHAPE = z.strictObject({
  attempts: z.number().int().min(1).max(10),
  backoff: z.enum(['exponential', 'fixed']).optional(),
  /** A duration: "500ms", "2s". */
  initial: z.string().trim().min(1).optional(),
});

/**
 * `[tools.<name>]`: limits for one WebAssembly tool (its component name or one
 * of its tool names), and for any tool by name the runner's `timeout` (a
 * duration) and `retry`.
 */
export const TOOL_LIMITS_SHAPE = z.strictObject({
  fuel: z.number().int().positive().optional(),
  memory_mb: z.number().int().positive().optional(),
  timeout_ms: z.number().int().positive().optional(),
  output_kb: z.number().int().positive().optional(),
  timeout: z.string().trim().min(1).optional(),
  retry: TOOL_RETRY_SHAPE.optional(),
});

/** `[sandbox.filesystem]`: the OS sandbox's extra write roots and denies (paths; `~/` expands). */
export const SANDBOX_FILESYSTEM_SHAPE = z.strictObject({
  allow_write: z.array(z.string().trim().min(1)).optional(),
  deny_read: z.array(z.string().trim().min(1)).optional(),
  deny_write: z.array(z.string().trim().min(1)).optional(),
});

/** `[sandbox.network]`: hosts sandboxed processes may reach, in the WASM NetworkGrant pattern syntax. */
export const SANDBOX_NETWORK_SHAPE = z.strictObject({
  allow: z.array(z.string().trim().min(1)).optional(),
  deny: z.array(z.string().trim().min(1)).optional(),
  /** Unix sockets sandboxed processes may connect to (Claude Code's `allowUnixSockets`); absolute or `~/` paths. */
  allow_unix_sockets: z.array(z.string().trim().min(1)).optional(),
});

export const SANDBOX_MODES = ['auto', 'required', 'off'] as const;

/**
 * `[sandbox]`: the ceiling no WASM tool's manifest or `[tools.<name>]` may
 * exceed, and the OS sandbox around bash, hooks and MCP servers (os-sandbox.ts).
 */
export const SANDBOX_SHAPE = z.strictObject({
  max_fuel: z.number().int().positive().optional(),
  max_memory_mb: z.number().int().positive().max(4096).optional(),
  max_timeout_ms: z.number().int().positive().optional(),
  mode: z.enum(SANDBOX_MODES).optional(),
  /** Environment variable names (or `*` globs) removed from sandboxed processes. */
  scrub_env: z.array(z.string().regex(/^[A-Za-z0-9_*]+$/, 'must be a variable name or a pattern with *')).optional(),
  filesystem: SANDBOX_FILESYSTEM_SHAPE.optional(),
  network: SANDBOX_NETWORK_SHAPE.optional(),
});

/** `[providers.<name>.models.<id>]`: a model's limits, prices (USD per million tokens) and capabilities. */
export const MODEL_SHAPE = z.strictObject({
  context_window: z.number().int().positive().optional(),
  max_output: z.number().int().positive().optional(),
  input_price: z.number().min(0).optional(),
  output_price: z.number().min(0).optional(),
  cache_read_price: z.number().min(0).optional(),
  cache_write_price: z.number().min(0).optional(),
  tools: z.boolean().optional(),
  images: z.boolean().optional(),
  reasoning: z.boolean().optional(),
});

/** Wire formats a provider can speak (the adapters in providers/). */
export const PROVIDER_TYPES = ['anthropic', 'openai-responses', 'openai-chat', 'gemini', 'bedrock', 'vertex'] as const;

/** `[providers.<name>]`: how to reach a provider; every field overrides the built-in entry of that name. */
export const PROVIDER_SHAPE = z.strictObject({
  type: z.enum(PROVIDER_TYPES).optional(),
  base_url: z.string().refine(isHttpUrl, 'must be an http:// or https:// URL').optional(),
  /** The name of the environment variable holding the key (never the key itself). */
  api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name').optional(),
  headers: z.record(z.string(), z.string()).optional(),
  models: z.record(z.string().min(1), MODEL_SHAPE).optional(),
  /** Seconds to wait for a response to start. */
  timeout: z.number().positive().optional(),
  /** A Chat Completions server with Mistral's rules for tool call ids and turn order (gateways serving Mistral models). */
  tool_call_rules: z.enum(['mistral']).optional(),
});

/**
 * `[mcp_servers.<name>]`: kept as they are here and checked one server at a
 * time by the MCP loader — its name too — so one bad entry skips that server
 * (naming file and key) instead of stopping moat.
 */
export const MCP_SERVERS_SHAPE = z.record(z.string(), z.unknown());

/** `[mcp]`: settings for every MCP server. */
export const MCP_SHAPE = z.strictObject({
  /** Start a project's own servers (`.mcp.json`, `.moat/config.toml`) without asking; only honoured in the user config. */
  trust_project: z.boolean().optional(),
});

export const FILE_SHAPE = z.strictObject({
  model: z.string().trim().min(1).optional(),
  max_turns: z.number().int().positive().optional(),
  max_budget_usd: z.number().positive().optional(),
  permission_mode: z.enum(PERMISSION_MODES).optional(),
  permissions: PERMISSIONS_SHAPE.optional(),
  add_dirs: z.array(z.string().trim().min(1)).optional(),
  /** Seconds without a byte from the API before the stream counts as stalled. */
  stream_idle_timeout: z.number().positive().optional(),
  /** Default timeout of one Bash call, in seconds. */
  bash_timeout: z.number().positive().optional(),
  api_base_url: z.string().refine(isHttpUrl, 'must be an http:// or https:// URL').optional(),
  max_tokens: z.number().int().positive().optional(),
  thinking_budget: z.number().int().min(MIN_THINKING_BUDGET).optional(),
  /** Sub-agents running at once; more are queued. */
  max_concurrent_agents: z.number().int().positive().max(32).optional(),
  /** How deep sub-agents may nest (a sub-agent's sub-agent is depth 2). */
  max_agent_depth: z.number().int().positive().max(8).optional(),
  tools: z.record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a tool name'), TOOL_LIMITS_SHAPE).optional(),
  sandbox: SANDBOX_SHAPE.optional(),
  /** `[keymap]`: TUI key bindings by action (keymap.ts). */
  keymap: KEYMAP_SHAPE.optional(),
  /** `[providers.<name>]`: model providers beyond the built-in ones, or changes to them. */
  providers: z.record(z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'must be a lowercase provider name'), PROVIDER_SHAPE).optional(),
  /** Models tried in order when the current one is overloaded or failing after its retries. */
  fallback: z.array(z.string().trim().min(1)).optional(),
  /** `[mcp_servers.<name>]`: MCP servers (Codex's keys), checked one by one by the MCP loader. */
  mcp_servers: MCP_SERVERS_SHAPE.optional(),
  mcp: MCP_SHAPE.optional(),
  /** `[[hooks.<Event>]]`: command hooks (Claude Code's events), as in settings.json. */
  hooks: HOOKS_SHAPE.optional(),
});

export type FileConfig = z.infer<typeof FILE_SHAPE>;
export type FileKey = keyof FileConfig;

/** Keys each table accepts, for "did you mean" hints. */
export const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  '': Object.keys(FILE_SHAPE.shape),
  permissions: Object.keys(PERMISSIONS_SHAPE.shape),
  sandbox: Object.keys(SANDBOX_SHAPE.shape),
  'sandbox.filesystem': Object.keys(SANDBOX_FILESYSTEM_SHAPE.shape),
  'sandbox.network': Object.keys(SANDBOX_NETWORK_SHAPE.shape),
  keymap: KEYMAP_ACTIONS,
  mcp: Object.keys(MCP_SHAPE.shape),
  hooks: HOOK_EVENTS,
  // Any [tools.<name>] table.
  'tools.*': Object.keys(TOOL_LIMITS_SHAPE.shape),
  'providers.*': Object.keys(PROVIDER_SHAPE.shape),
  'providers.*.models.*': Object.keys(MODEL_SHAPE.shape),
};
