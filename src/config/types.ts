/** The merged configuration types the rest of moat uses. */
import type { PermissionMode, SandboxConfig } from '../contracts/index.ts';
import type { FileConfig } from './schema.ts';
import type { ConfigFile } from './config-file.ts';
import type { Secret } from './secret.ts';
import type { Env } from './paths.ts';
import type { KeymapConfig } from './keymap.ts';
import type { ToolLimitsConfig } from './tool-limits.ts';
import type { CheckpointsConfig } from './checkpoints-config.ts';
import type { HooksConfig } from './hooks-config.ts';
import type { SettingSource } from './claude-settings.ts';

/** The merged, validated configuration the rest of moat uses (camelCase, units in names). */
export interface Config {
  model: string;
  /** Undefined: no limit. */
  maxTurns: number | undefined;
  /** Undefined: no limit. */
  maxBudgetUsd: number | undefined;
  permissionMode: PermissionMode;
  /** Rule strings (`Bash(npm test:*)`), the union of every source, first occurrence first. */
  permissions: { allow: string[]; deny: string[]; ask: string[] };
  /** Absolute paths, deduplicated. */
  addDirs: string[];
  streamIdleTimeoutMs: number;
  bashTimeoutMs: number;
  /** Undefined: the provider's default endpoint. */
  apiBaseUrl: string | undefined;
  /** From ANTHROPIC_API_KEY only; prints as [redacted]. */
  apiKey: Secret | undefined;
  maxTokens: number;
  /** Undefined: extended thinking off. */
  thinkingBudget: number | undefined;
  /** Undefined: the sub-agent manager's default (4). */
  maxConcurrentAgents: number | undefined;
  /** Undefined: the default depth (2). */
  maxAgentDepth: number | undefined;
  /** `[keymap]`: TUI key bindings, keys normalised (`ctrl+o`); only the actions set. */
  keymap: KeymapConfig;
  /** `[providers.<name>]` from the user config (a project's cannot redirect keys), only the fields set. */
  providers: Record<string, ProviderSettings>;
  /** Models to fall back on, in order (`fallback`, `--fallback-model`). */
  fallback: string[];
}

/** One `[providers.<name>]` table, camelCase; the CLI lays it over the built-in entry. */
export interface ProviderSettings {
  type?: 'anthropic' | 'openai-responses' | 'openai-chat' | 'gemini' | 'bedrock' | 'vertex';
  baseUrl?: string;
  apiKeyEnv?: string;
  headers?: Record<string, string>;
  timeoutS?: number;
  toolCallRules?: 'mistral';
  models?: Record<string, ModelSettings>;
}

/** One `[providers.<name>.models.<id>]` table. */
export interface ModelSettings {
  contextWindow?: number;
  maxOutput?: number;
  price?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
  capabilities?: { tools?: boolean; images?: boolean; reasoning?: boolean };
}

export type ConfigKey = keyof Config;

/** Where a value came from, for `/config` and for error messages. */
export type ConfigSource =
  | { kind: 'default' }
  | { kind: 'file'; scope: 'user' | 'project'; path: string; line: number }
  | { kind: 'env'; name: string }
  | { kind: 'flag'; name: string };

/**
 * What the CLI passes in from its flags; every field optional. Relative
 * `addDirs` resolve against cwd. Field names are the CLI's concern; the
 * `--names` used in error messages are in load-config.ts.
 */
export interface ConfigFlags {
  model?: string;
  maxTurns?: number;
  maxBudgetUsd?: number;
  permissionMode?: string;
  allowedTools?: string[];
  disallowedTools?: string[];
  addDirs?: string[];
  apiBaseUrl?: string;
  maxTokens?: number;
  thinkingBudget?: number;
  /** `--fallback-model`: replaces the configured fallback list. */
  fallback?: string[];
  /** `--settings`' `permissions.ask`: the user's own, like the allow and deny flags. */
  askRules?: string[];
  /** `--settings`' `hooks` (Claude Code's shape): the user's own, so they run without trusting the folder. */
  hooks?: FileConfig['hooks'];
}

export interface LoadConfigOptions {
  cwd: string;
  env?: Env;
  flags?: ConfigFlags;
  /** `--setting-sources`: which of Claude Code's settings files to read (default all three). */
  settingSources?: readonly SettingSource[];
}

export interface LoadedConfig {
  config: Config;
  /** The source of each value (for lists, of their last contributor). */
  sources: Record<ConfigKey, ConfigSource>;
  /** Each permission rule with where it was first given. */
  rules: { list: 'allow' | 'deny' | 'ask'; rule: string; source: ConfigSource }[];
  projectRoot: string;
  /** The two config files, whether or not they exist: where "allow always" writes. */
  files: { user: string; project: string };
  /** The files that existed and were read, lowest precedence first. */
  loadedFiles: string[];
  /**
   * The two config.toml files as parsed and checked here (undefined: there is
   * none; the project's also when it is the user's own): the MCP server loader
   * takes their `[mcp_servers]` and `[mcp]` tables from these, and reads no
   * config file again.
   */
  parsedFiles: { user: ConfigFile | undefined; project: ConfigFile | undefined };
  /** `[tools.<name>]` limit overrides for WebAssembly tools, and the `[sandbox]` ceiling. */
  toolLimits: ToolLimitsConfig;
  /** `[sandbox] mode/scrub_env`, `[sandbox.filesystem]`, `[sandbox.network]`: the OS sandbox around processes. */
  osSandbox: SandboxConfig;
  /** `[checkpoints]` (the user's config only). */
  checkpoints: CheckpointsConfig;
  /** Command hooks from every settings source (a project's only once trusted). */
  hooks: HooksConfig;
  /** Claude Code's `env` from settings files, merged (a project's only once trusted). */
  env: Record<string, string>;
  /** One line per project file whose grants were ignored because the folder is not trusted. */
  untrusted: string[];
  /** The same sources read again (the user just trusted the folder: its grants apply without a restart). */
  reload?: () => LoadedConfig;
}
