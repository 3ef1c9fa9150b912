/** The zod shape of a config file: the single source of its keys and types. */
import { z } from 'zod';
import { PERMISSION_MODES, SANDBOX_MODES } from '../contracts/index.ts';
import { once } from '../util/index.ts';
import { HOOK_EVENTS, hooksShape } from './hooks-config.ts';
import { KEYMAP_ACTIONS, keymapShape } from './keymap.ts';

/**
 * The shape of one config file (user or project), as written in TOML:
 * snake_case keys, every key optional, unknown keys rejected. Defaults are
 * applied after merging (see load-config.ts), not here, so a file only ever
 * says what it sets.
 *
 * Adding a section later (`[keymap]` for the TUI, `[tools.<name>]` limits for
 * WASM tools, `[sandbox]`): add its strict schema to FILE_FIELDS, its merge rule
 * and camelCase field in load-config.ts, and remove its name from
 * RESERVED_SECTIONS. Until then those sections are errors, like any unknown key.
 */


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

/*
 * Each shape below is built on its first use (`once`), not when this module
 * is evaluated: building every zod schema of a config file cost ~10 ms of
 * `moat -p` start-up, and a run without config files validates at most the
 * keys its environment and flags set (`fileShapeFor`).
 */

/** A rule string such as `Bash(npm test:*)`; parsed elsewhere (tools/permissions), kept verbatim here. */
const rule = () => z.string().trim().min(1);

const permissionsShape = once(() =>
  z.strictObject({
    allow: z.array(rule()).optional(),
    deny: z.array(rule()).optional(),
    /** Always asked, even when an allow rule or the mode would allow (deny rules still win). */
    ask: z.array(rule()).optional(),
  }),
);

/** `[tools.<name>] retry`: how often and how patiently an idempotent tool's passing failures are tried again. */
const toolRetryShape = once(() =>
  z.strictObject({
    attempts: z.number().int().min(1).max(10),
    backoff: z.enum(['exponential', 'fixed']).optional(),
    /** A duration: "500ms", "2s". */
    initial: z.string().trim().min(1).optional(),
  }),
);

/**
 * `[tools.<name>]`: limits for one WebAssembly tool (its component name or one
 * of its tool names), and for any tool by name the runner's `timeout` (a
 * duration) and `retry`.
 */
const toolLimitsShape = once(() =>
  z.strictObject({
    fuel: z.number().int().positive().optional(),
    memory_mb: z.number().int().positive().optional(),
    timeout_ms: z.number().int().positive().optional(),
    output_kb: z.number().int().positive().optional(),
    timeout: z.string().trim().min(1).optional(),
    retry: toolRetryShape().optional(),
  }),
);

/** A size such as "2 GiB", "512 MiB", "100 MB" or a number of bytes. */
const byteSize = once(() =>
  z.union([z.number().int().positive(), z.string().trim().regex(/^\d+(\.\d+)?\s*([KMGT]i?B|B)?$/i, 'must be a size such as "2 GiB" or "512 MiB"')]),
);

/** `[sandbox.filesystem]`: the OS sandbox's extra write roots and denies (paths; `~/` expands). */
const sandboxFilesystemShape = once(() =>
  z.strictObject({
    allow_write: z.array(z.string().trim().min(1)).optional(),
    deny_read: z.array(z.string().trim().min(1)).optional(),
    deny_write: z.array(z.string().trim().min(1)).optional(),
  }),
);

/** `[sandbox.network]`: hosts sandboxed processes may reach, in the WASM NetworkGrant pattern syntax. */
const sandboxNetworkShape = once(() =>
  z.strictObject({
    allow: z.array(z.string().trim().min(1)).optional(),
    deny: z.array(z.string().trim().min(1)).optional(),
    /** Unix sockets sandboxed processes may connect to (Claude Code's `allowUnixSockets`); absolute or `~/` paths. */
    allow_unix_sockets: z.array(z.string().trim().min(1)).optional(),
    /** Let allowed hosts be loopback addresses (127.0.0.0/8, ::1): the host's own services. User config only. */
    allow_loopback: z.boolean().optional(),
  }),
);

/**
 * `[sandbox]`: the ceiling no WASM tool's manifest or `[tools.<name>]` may
 * exceed, and the OS sandbox around bash, hooks and MCP servers (os-sandbox.ts).
 */
const sandboxShape = once(() =>
  z.strictObject({
    max_fuel: z.number().int().positive().optional(),
    max_memory_mb: z.number().int().positive().max(4096).optional(),
    max_timeout_ms: z.number().int().positive().optional(),
    mode: z.enum(SANDBOX_MODES).optional(),
    /** Environment variable names (or `*` globs) removed from sandboxed processes. */
    scrub_env: z.array(z.string().regex(/^[A-Za-z0-9_*]+$/, 'must be a variable name or a pattern with *')).optional(),
    filesystem: sandboxFilesystemShape().optional(),
    network: sandboxNetworkShape().optional(),
    /** Per sandboxed command: processes (and threads) at once, memory ("2 GiB"), and the largest file it may write. */
    pids_limit: z.number().int().min(16).optional(),
    memory_limit: byteSize().optional(),
    file_size_limit: byteSize().optional(),
  }),
);

/** `[providers.<name>.models.<id>]`: a model's limits, prices (USD per million tokens) and capabilities. */
const modelShape = once(() =>
  z.strictObject({
    context_window: z.number().int().positive().optional(),
    max_output: z.number().int().positive().optional(),
    input_price: z.number().min(0).optional(),
    output_price: z.number().min(0).optional(),
    cache_read_price: z.number().min(0).optional(),
    cache_write_price: z.number().min(0).optional(),
    tools: z.boolean().optional(),
    images: z.boolean().optional(),
    reasoning: z.boolean().optional(),
  }),
);

/** Wire formats a provider can speak (the adapters in providers/). */
export const PROVIDER_TYPES = ['anthropic', 'openai-responses', 'openai-chat', 'gemini', 'bedrock', 'vertex'] as const;

/** `[providers.<name>]`: how to reach a provider; every field overrides the built-in entry of that name. */
const providerShape = once(() =>
  z.strictObject({
    type: z.enum(PROVIDER_TYPES).optional(),
    base_url: z.string().refine(isHttpUrl, 'must be an http:// or https:// URL').optional(),
    /** The name of the environment variable holding the key (never the key itself). */
    api_key_env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name').optional(),
    headers: z.record(z.string(), z.string()).optional(),
    models: z.record(z.string().min(1), modelShape()).optional(),
    /** Seconds to wait for a response to start. */
    timeout: z.number().positive().optional(),
    /** A Chat Completions server with Mistral's rules for tool call ids and turn order (gateways serving Mistral models). */
    tool_call_rules: z.enum(['mistral']).optional(),
  }),
);

/** `[checkpoints]`: the files recorded before each prompt's first change, for rewind (read from the user config only). */
const checkpointsShape = once(() =>
  z.strictObject({
    enabled: z.boolean().optional(),
    /** Checkpoints older than this many days are removed. */
    keep_days: z.number().positive().optional(),
    /** Files larger than this (in MB) are left out of checkpoints. */
    max_file_mb: z.number().positive().optional(),
  }),
);

/** `[mcp]`: settings for every MCP server. */
const mcpShape = once(() =>
  z.strictObject({
    /** Start a project's own servers (`.mcp.json`, `.moat/config.toml`) without asking; only honoured in the user config. */
    trust_project: z.boolean().optional(),
  }),
);

/**
 * What the fields set from the environment (MOAT_MODEL or ANTHROPIC_MODEL,
 * ANTHROPIC_BASE_URL) accept of a string and return, undefined when zod
 * would refuse it: the environment layer checks its values with these, and
 * asks zod only about a value one refuses, to word the problem as zod does.
 * zod's first use costs ~4 ms before `-p`'s first request, and these are
 * often the only values it would check then. Each mirrors its FILE_FIELDS
 * entry below; test/config/env-checks.test.ts holds the two equal.
 */
export const ENV_STRING_CHECKS = {
  model: (v: string): string | undefined => (v.trim() === '' ? undefined : v.trim()),
  api_base_url: (v: string): string | undefined => (isHttpUrl(v) ? v : undefined),
} as const;

/** The top-level keys of a config file, in the order of the file shape, each a function building its schema. */
export const FILE_FIELDS = {
  model: () => z.string().trim().min(1).optional(),
  max_turns: () => z.number().int().positive().optional(),
  max_budget_usd: () => z.number().positive().optional(),
  permission_mode: () => z.enum(PERMISSION_MODES).optional(),
  permissions: () => permissionsShape().optional(),
  add_dirs: () => z.array(z.string().trim().min(1)).optional(),
  /** Seconds without a byte from the API before the stream counts as stalled. */
  stream_idle_timeout: () => z.number().positive().optional(),
  /** Default timeout of one Bash call, in seconds. */
  bash_timeout: () => z.number().positive().optional(),
  api_base_url: () => z.string().refine(isHttpUrl, 'must be an http:// or https:// URL').optional(),
  max_tokens: () => z.number().int().positive().optional(),
  thinking_budget: () => z.number().int().min(MIN_THINKING_BUDGET).optional(),
  /** Sub-agents running at once; more are queued. */
  max_concurrent_agents: () => z.number().int().positive().max(32).optional(),
  /** How deep sub-agents may nest (a sub-agent's sub-agent is depth 2). */
  max_agent_depth: () => z.number().int().positive().max(8).optional(),
  tools: () => z.record(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a tool name'), toolLimitsShape()).optional(),
  sandbox: () => sandboxShape().optional(),
  /** `[keymap]`: TUI key bindings by action (keymap.ts). */
  keymap: () => keymapShape().optional(),
  /** `[providers.<name>]`: model providers beyond the built-in ones, or changes to them. */
  providers: () => z.record(z.string().regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'must be a lowercase provider name'), providerShape()).optional(),
  /** Models tried in order when the current one is overloaded or failing after its retries. */
  fallback: () => z.array(z.string().trim().min(1)).optional(),
  /**
   * `[mcp_servers.<name>]`: MCP servers (Codex's keys), kept as they are here
   * and checked one server at a time by the MCP loader — its name too — so one
   * bad entry skips that server (naming file and key) instead of stopping moat.
   */
  mcp_servers: () => z.record(z.string(), z.unknown()).optional(),
  /** `[mcp]`: settings for every MCP server. */
  mcp: () => mcpShape().optional(),
  /** `[[hooks.<Event>]]`: command hooks (Claude Code's events), as in settings.json. */
  hooks: () => hooksShape().optional(),
  /** `[checkpoints]`: checkpoints and rewind. */
  checkpoints: () => checkpointsShape().optional(),
};
type FileFields = { [K in keyof typeof FILE_FIELDS]: ReturnType<(typeof FILE_FIELDS)[K]> };

/** The shape of one config file (user or project). */
export const fileShape = once(() => z.strictObject(Object.fromEntries(Object.entries(FILE_FIELDS).map(([k, build]) => [k, build()])) as FileFields));

export type FileConfig = z.infer<ReturnType<typeof fileShape>>;
export type FileKey = keyof FileConfig;

/**
 * The shape to check settings with `keys` against: the same checks as
 * `fileShape` for those keys, without building the others (a config file
 * with `[sandbox]` alone builds the sandbox schema alone). An unknown key
 * gets the whole shape, so the error is the one the whole file shape gives.
 */
export function fileShapeFor(keys: readonly string[]): z.ZodType<FileConfig> {
  if (!keys.every((k) => Object.hasOwn(FILE_FIELDS, k))) return fileShape();
  // In the whole shape's order, so that several problems are reported in the same order.
  const present = (Object.keys(FILE_FIELDS) as (keyof FileFields)[]).filter((k) => keys.includes(k));
  return z.strictObject(Object.fromEntries(present.map((k) => [k, FILE_FIELDS[k]()])) as Partial<FileFields>) as z.ZodType<FileConfig>;
}

/** Keys each table accepts, for "did you mean" hints. */
export const knownKeys = once(
  (): Readonly<Record<string, readonly string[]>> => ({
    '': Object.keys(FILE_FIELDS),
    permissions: Object.keys(permissionsShape().shape),
    sandbox: Object.keys(sandboxShape().shape),
    'sandbox.filesystem': Object.keys(sandboxFilesystemShape().shape),
    'sandbox.network': Object.keys(sandboxNetworkShape().shape),
    keymap: KEYMAP_ACTIONS,
    mcp: Object.keys(mcpShape().shape),
    checkpoints: Object.keys(checkpointsShape().shape),
    hooks: HOOK_EVENTS,
    // Any [tools.<name>] table.
    'tools.*': Object.keys(toolLimitsShape().shape),
    'providers.*': Object.keys(providerShape().shape),
    'providers.*.models.*': Object.keys(modelShape().shape),
  }),
);
