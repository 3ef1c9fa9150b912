/** Loads and merges every config source (settings files, TOML, environment, flags) into one Config. */
import { dirname, relative, resolve, sep } from 'node:path';
import { MoatError } from '../util/index.ts';
import { type ConfigFile, readConfigFile } from './config-file.ts';
import { formatKeyPath } from '../contracts/index.ts';
import { describeIssues } from './issues.ts';
import { type Env, expandHome, homeOf, moatPaths } from './paths.ts';
import { findProjectRoot, projectConfigFile } from './project-root.ts';
import {
  DEFAULT_BASH_TIMEOUT_S,
  DEFAULT_MAX_TOKENS,
  DEFAULT_MODEL,
  DEFAULT_STREAM_IDLE_TIMEOUT_S,
  ENV_STRING_CHECKS,
  fileShapeFor,
  type FileConfig,
} from './schema.ts';
import { Secret } from './secret.ts';
import { lineOfPath } from '../util/index.ts';
import type { KeymapConfig } from './keymap.ts';
import { mergeToolLimits } from './tool-limits.ts';
import { mergeCheckpoints } from './checkpoints-config.ts';
import { mergeOsSandbox } from './os-sandbox.ts';
import { claudeSettingsPaths, readClaudeSettings, SETTING_SOURCES, type ClaudeSettingsFile } from './claude-settings.ts';
import { addHooks, countHooks, type HooksConfig } from './hooks-config.ts';
import { projectTrust, type ProjectTrust } from './project-trust.ts';
import type {
  Config,
  ConfigFlags,
  ConfigKey,
  ConfigSource,
  LoadConfigOptions,
  LoadedConfig,
  ModelSettings,
  ProviderSettings,
} from './types.ts';

type ProviderTable = NonNullable<FileConfig['providers']>[string];

/** A `[providers.<name>]` table in camelCase, with only the fields it sets. */
function providerSettings(p: ProviderTable): Omit<ProviderSettings, 'models'> {
  const out: Omit<ProviderSettings, 'models'> = {};
  if (p.type !== undefined) out.type = p.type;
  if (p.base_url !== undefined) out.baseUrl = p.base_url;
  if (p.api_key_env !== undefined) out.apiKeyEnv = p.api_key_env;
  if (p.headers !== undefined) out.headers = p.headers;
  if (p.timeout !== undefined) out.timeoutS = p.timeout;
  if (p.tool_call_rules !== undefined) out.toolCallRules = p.tool_call_rules;
  return out;
}

function modelSettings(models: ProviderTable['models']): Record<string, ModelSettings> {
  const out: Record<string, ModelSettings> = {};
  for (const [id, m] of Object.entries(models ?? {})) {
    const price = { input: m.input_price, output: m.output_price, cacheRead: m.cache_read_price, cacheWrite: m.cache_write_price };
    const capabilities = { tools: m.tools, images: m.images, reasoning: m.reasoning };
    out[id] = {
      ...(m.context_window === undefined ? {} : { contextWindow: m.context_window }),
      ...(m.max_output === undefined ? {} : { maxOutput: m.max_output }),
      price: defined(price),
      capabilities: defined(capabilities),
    };
  }
  return out;
}

function defined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** One source of settings, already validated against the file shape. */
interface Layer {
  data: FileConfig;
  sourceOf(path: (string | number)[]): ConfigSource;
  /** Relative add_dirs resolve against this. */
  baseDir: string;
  /** Where it comes from: a project's file may only tighten the sandbox. */
  scope: 'user' | 'project' | 'env' | 'flag';
  /** How a problem found after merging is reported for this layer. */
  fail(path: (string | number)[], message: string): MoatError;
  /** Claude Code's `env` (settings files only). */
  env?: Record<string, string>;
  /** Shown in notices about this layer. */
  display?: string;
}

/** The flag each file key corresponds to, for messages about flags. */
const FLAG_NAMES: Record<string, string> = {
  model: '--model',
  max_turns: '--max-turns',
  max_budget_usd: '--max-budget-usd',
  permission_mode: '--permission-mode',
  'permissions.allow': '--allowedTools',
  'permissions.deny': '--disallowedTools',
  'permissions.ask': '--settings',
  hooks: '--settings',
  add_dirs: '--add-dir',
  api_base_url: '--api-base-url',
  max_tokens: '--max-tokens',
  thinking_budget: '--max-thinking-tokens',
  fallback: '--fallback-model',
};

function flagName(path: readonly (string | number)[]): string {
  const keys = path.filter((p): p is string => typeof p === 'string');
  return FLAG_NAMES[keys.join('.')] ?? FLAG_NAMES[keys[0] ?? ''] ?? formatKeyPath(path);
}

/** Where a value was set, for messages: `.claude/settings.json:4`, `--disallowedTools`, `MOAT_MODEL`; undefined for a default. */
export function describeSource(source: ConfigSource, cwd: string, env: Env): string | undefined {
  switch (source.kind) {
    case 'default':
      return undefined;
    case 'file':
      return `${displayPath(source.path, cwd, env)}:${source.line}`;
    case 'env':
      return `the environment variable ${source.name}`;
    case 'flag':
      return source.name;
  }
}

/** Paths in messages: relative inside cwd, `~/…` inside home, else absolute. */
export function displayPath(file: string, cwd: string, env: Env): string {
  if (file.startsWith(cwd + sep)) return relative(cwd, file);
  const home = homeOf(env);
  if (file.startsWith(home + sep)) return `~/${relative(home, file)}`;
  return file;
}

function fileLayer(file: ConfigFile, scope: 'user' | 'project', baseDir: string): Layer {
  const line = (path: (string | number)[]): number => lineOfPath(file.outline, path);
  return {
    data: file.data,
    baseDir,
    scope,
    sourceOf: (path) => ({ kind: 'file', scope, path: file.path, line: line(path) }),
    fail: (path, message) =>
      new MoatError('config', `${file.display}:${line(path)}: ${formatKeyPath(path)}: ${message}`),
  };
}

/** A Claude Code settings file as a layer: its permissions, mode, folders and model in moat's file shape. */
function claudeLayer(file: ClaudeSettingsFile): Layer {
  const d = file.data;
  const p = d.permissions;
  const data: FileConfig = {};
  if (d.model !== undefined) data.model = d.model;
  if (p?.defaultMode !== undefined) data.permission_mode = p.defaultMode;
  if (p?.additionalDirectories !== undefined) data.add_dirs = p.additionalDirectories;
  if (p?.allow !== undefined || p?.deny !== undefined || p?.ask !== undefined) {
    data.permissions = { ...(p.allow ? { allow: p.allow } : {}), ...(p.deny ? { deny: p.deny } : {}), ...(p.ask ? { ask: p.ask } : {}) };
  }
  if (d.hooks !== undefined) data.hooks = d.hooks;
  // Claude Code's keys, so a message points at what the user wrote.
  const claudeKey = (path: (string | number)[]): (string | number)[] => {
    const [head, ...rest] = path;
    if (head === 'permission_mode') return ['permissions', 'defaultMode'];
    if (head === 'add_dirs') return ['permissions', 'additionalDirectories', ...rest];
    return path;
  };
  const scope = file.source === 'user' ? 'user' : 'project';
  return {
    data,
    // Relative folders resolve against the folder holding `.claude/` (the project root, or home).
    baseDir: dirname(dirname(file.path)),
    scope,
    display: file.display,
    ...(d.env === undefined ? {} : { env: d.env }),
    sourceOf: (path) => ({ kind: 'file', scope, path: file.path, line: file.lineOf(claudeKey(path)) }),
    fail: (path, message) => new MoatError('config', `${file.display}:${file.lineOf(claudeKey(path))}: ${formatKeyPath(claudeKey(path))}: ${message}`),
  };
}

/**
 * A project's files may restrict at once but grant only once the user trusts
 * the folder: without trust its allow rules, extra folders, looser modes, env
 * and hooks are dropped (deny and ask rules stay), except allow rules the user
 * approved for the folder by an "always" answer. bypassPermissions never
 * comes from a project. Returns what was dropped, for one notice line.
 */
function withoutGrants(layer: Layer, trust: () => ProjectTrust): string[] {
  if (layer.scope !== 'project') return [];
  const d = layer.data;
  const dropped: string[] = [];
  if (d.permission_mode === 'bypassPermissions') {
    delete d.permission_mode;
    dropped.push('bypassPermissions');
  }
  const grants = [
    ...(d.permissions?.allow?.length ? [`${d.permissions.allow.length} allow rule${d.permissions.allow.length === 1 ? '' : 's'}`] : []),
    ...(d.add_dirs?.length ? ['additional folders'] : []),
    ...(d.permission_mode === 'acceptEdits' ? ['acceptEdits mode'] : []),
    ...(layer.env && Object.keys(layer.env).length > 0 ? ['env'] : []),
    ...(d.hooks && countHooks(hooksOf(d.hooks)) > 0 ? ['hooks'] : []),
  ];
  if (grants.length === 0 || trust().trusted) return dropped;
  const approved = new Set(trust().approvedRules);
  const kept = (d.permissions?.allow ?? []).filter((r) => approved.has(r));
  const ignored = (d.permissions?.allow?.length ?? 0) - kept.length;
  if (d.permissions) {
    if (kept.length > 0) d.permissions.allow = kept;
    else delete d.permissions.allow;
  }
  // The allow rules' entry (first in `grants`) counts only those actually ignored.
  if (kept.length > 0) grants.splice(0, 1, ...(ignored > 0 ? [`${ignored} allow rule${ignored === 1 ? '' : 's'}`] : []));
  delete d.add_dirs;
  if (d.permission_mode === 'acceptEdits') delete d.permission_mode;
  delete d.hooks;
  delete layer.env;
  return [...dropped, ...grants];
}

function hooksOf(raw: FileConfig['hooks']): HooksConfig {
  const out: HooksConfig = {};
  addHooks(out, raw, '');
  return out;
}

function validated(raw: FileConfig, fail: (path: (string | number)[], message: string) => MoatError): FileConfig {
  // Nothing set (the usual case for env and flags): skip zod's first-use cost on the startup path.
  if (Object.keys(raw).length === 0) return raw;
  const result = fileShapeFor(Object.keys(raw)).safeParse(raw);
  if (result.success) return result.data;
  const [first] = describeIssues(result.error.issues, raw);
  throw first ? fail(first.path, first.message) : new MoatError('internal', 'validation failed without an issue');
}

function envLayer(env: Env, cwd: string): Layer {
  const set = (name: string): string | undefined => (env[name] === '' ? undefined : env[name]);
  const names: Record<string, string> = {};
  const raw: Record<string, string> = {};
  const modelVar = set('MOAT_MODEL') !== undefined ? 'MOAT_MODEL' : 'ANTHROPIC_MODEL';
  const model = set(modelVar);
  if (model !== undefined) {
    raw.model = model;
    names.model = modelVar;
  }
  const baseUrl = set('ANTHROPIC_BASE_URL');
  if (baseUrl !== undefined) {
    raw.api_base_url = baseUrl;
    names.api_base_url = 'ANTHROPIC_BASE_URL';
  }
  const fail = (path: (string | number)[], message: string): MoatError =>
    new MoatError('config', `environment variable ${names[String(path[0])] ?? formatKeyPath(path)}: ${message}`);
  // Each value by its string check (ENV_STRING_CHECKS, equal to its zod field); zod, asked only when one fails, words the problem.
  const checked = Object.entries(raw).map(([key, value]) => [key, ENV_STRING_CHECKS[key as keyof typeof ENV_STRING_CHECKS](value)] as const);
  const data = checked.every(([, value]) => value !== undefined) ? (Object.fromEntries(checked) as FileConfig) : validated(raw as FileConfig, fail);
  return {
    data,
    baseDir: cwd,
    scope: 'env',
    sourceOf: (path) => ({ kind: 'env', name: names[String(path[0])] ?? '' }),
    fail,
  };
}

function flagLayer(flags: ConfigFlags, cwd: string): Layer {
  const raw: Record<string, unknown> = {
    model: flags.model,
    max_turns: flags.maxTurns,
    max_budget_usd: flags.maxBudgetUsd,
    permission_mode: flags.permissionMode,
    add_dirs: flags.addDirs,
    api_base_url: flags.apiBaseUrl,
    max_tokens: flags.maxTokens,
    thinking_budget: flags.thinkingBudget,
    fallback: flags.fallback,
  };
  if (flags.allowedTools !== undefined || flags.disallowedTools !== undefined || flags.askRules !== undefined) {
    raw.permissions = Object.fromEntries(Object.entries({ allow: flags.allowedTools, deny: flags.disallowedTools, ask: flags.askRules }).filter(([, v]) => v !== undefined));
  }
  if (flags.hooks !== undefined) raw.hooks = flags.hooks;
  for (const k of Object.keys(raw)) if (raw[k] === undefined) delete raw[k];
  const fail = (path: (string | number)[], message: string): MoatError =>
    new MoatError('usage', `${flagName(path)}: ${message}`);
  return {
    data: validated(raw as FileConfig, fail),
    baseDir: cwd,
    scope: 'flag',
    // Hooks from `--settings` are listed (/hooks) as coming from it.
    display: '--settings',
    sourceOf: (path) => ({ kind: 'flag', name: flagName(path) }),
    fail,
  };
}

type Scalar = Exclude<keyof FileConfig, 'permissions' | 'add_dirs' | 'tools' | 'sandbox' | 'keymap' | 'providers' | 'fallback' | 'mcp_servers' | 'mcp' | 'hooks' | 'checkpoints'>;

/** snake_case file key → Config key, for the scalar settings. */
const SCALARS: Record<Scalar, ConfigKey> = {
  model: 'model',
  max_turns: 'maxTurns',
  max_budget_usd: 'maxBudgetUsd',
  permission_mode: 'permissionMode',
  stream_idle_timeout: 'streamIdleTimeoutMs',
  bash_timeout: 'bashTimeoutMs',
  api_base_url: 'apiBaseUrl',
  max_tokens: 'maxTokens',
  thinking_budget: 'thinkingBudget',
  max_concurrent_agents: 'maxConcurrentAgents',
  max_agent_depth: 'maxAgentDepth',
};

/**
 * Loads and merges the configuration. Precedence, lowest first: defaults,
 * the user file (`$XDG_CONFIG_HOME/moat/config.toml`), the project file
 * (`.moat/config.toml` at the project root), the environment, CLI flags.
 * Scalars override; permission rules and add_dirs are unions.
 *
 * Throws `MoatError('config')` for a bad file or variable and
 * `MoatError('usage')` for a bad flag, each as one line.
 */
export function loadConfig(opts: LoadConfigOptions): LoadedConfig {
  const env = opts.env ?? process.env;
  const cwd = resolve(opts.cwd);
  const projectRoot = findProjectRoot(cwd);
  const paths = moatPaths(env);
  const files = { user: paths.userConfigFile, project: projectConfigFile(projectRoot) };

  const layers: Layer[] = [];
  const loadedFiles: string[] = [];
  // Claude Code's settings first: moat's own files win on conflict.
  const claudePaths = claudeSettingsPaths(homeOf(env), projectRoot);
  for (const source of opts.settingSources ?? SETTING_SOURCES) {
    const path = claudePaths[source];
    if (source !== 'user' && path === claudePaths.user) continue;
    const file = readClaudeSettings(source, path, displayPath(path, cwd, env));
    if (file) {
      layers.push(claudeLayer(file));
      loadedFiles.push(path);
    }
  }
  const user = readConfigFile(files.user, displayPath(files.user, cwd, env));
  if (user) {
    layers.push({ ...fileLayer(user, 'user', paths.configDir), display: user.display });
    loadedFiles.push(files.user);
  }
  // In a home-directory "project" the two paths can coincide only if XDG points there; read once.
  const project = files.project === files.user ? undefined : readConfigFile(files.project, displayPath(files.project, cwd, env));
  if (project) {
    const layer = fileLayer(project, 'project', projectRoot);
    // A cloned repository must not be able to switch off every permission check:
    // bypassPermissions is the user's choice (user config or flag), never the repo's.
    if (project.data.permission_mode === 'bypassPermissions') {
      throw layer.fail(['permission_mode'], 'bypassPermissions can only be set in the user config or with --permission-mode');
    }
    // Nor may it send the user's API keys somewhere else (a base_url, another key variable), trusted or not.
    if (project.data.providers !== undefined) {
      throw layer.fail(['providers'], 'providers can only be set in the user config (~/.config/moat/config.toml)');
    }
    if (project.data.api_base_url !== undefined) {
      throw layer.fail(['api_base_url'], 'an endpoint can only be set in the user config (~/.config/moat/config.toml) or with ANTHROPIC_BASE_URL: a project must not send your API key elsewhere');
    }
    layer.display = project.display;
    layers.push(layer);
    loadedFiles.push(files.project);
  }
  let trust: ProjectTrust | undefined;
  const trustOf = (): ProjectTrust => (trust ??= projectTrust(projectRoot, paths.configDir, homeOf(env)));
  const untrusted: string[] = [];
  for (const layer of layers) {
    const dropped = withoutGrants(layer, trustOf);
    if (dropped.length > 0) untrusted.push(`${layer.display ?? 'project settings'}: ${dropped.join(', ')}`);
  }
  layers.push(envLayer(env, cwd), flagLayer(opts.flags ?? {}, cwd));

  /** The highest-precedence layer that sets `key`, with its value. */
  const top = <K extends Scalar>(key: K): { value: NonNullable<FileConfig[K]>; layer: Layer } | undefined => {
    for (const layer of [...layers].reverse()) {
      const value = layer.data[key];
      if (value !== undefined && value !== null) return { value, layer };
    }
    return undefined;
  };

  const sources = {} as Record<ConfigKey, ConfigSource>;
  for (const [fileKey, configKey] of Object.entries(SCALARS) as [Scalar, ConfigKey][]) {
    sources[configKey] = top(fileKey)?.layer.sourceOf([fileKey]) ?? { kind: 'default' };
  }
  sources.permissions = { kind: 'default' };
  sources.addDirs = { kind: 'default' };
  sources.keymap = { kind: 'default' };
  sources.providers = { kind: 'default' };
  sources.fallback = { kind: 'default' };

  const rules: LoadedConfig['rules'] = [];
  const addDirs: string[] = [];
  const keymap: KeymapConfig = {};
  for (const layer of layers) {
    for (const list of ['allow', 'deny', 'ask'] as const) {
      const items = layer.data.permissions?.[list] ?? [];
      items.forEach((rule, i) => {
        if (!rules.some((r) => r.list === list && r.rule === rule)) {
          rules.push({ list, rule, source: layer.sourceOf(['permissions', list, i]) });
        }
      });
      if (items.length > 0) sources.permissions = layer.sourceOf(['permissions', list]);
    }
    const dirs = layer.data.add_dirs ?? [];
    for (const dir of dirs) {
      const abs = resolve(layer.baseDir, expandHome(dir, env));
      if (!addDirs.includes(abs)) addDirs.push(abs);
    }
    if (dirs.length > 0) sources.addDirs = layer.sourceOf(['add_dirs']);
    // Per action, the project's binding replaces the user's.
    if (layer.data.keymap && Object.keys(layer.data.keymap).length > 0) {
      Object.assign(keymap, layer.data.keymap);
      sources.keymap = layer.sourceOf(['keymap']);
    }
  }

  const providers: Record<string, ProviderSettings> = {};
  let fallback: string[] = [];
  for (const layer of layers) {
    for (const [name, p] of Object.entries(layer.data.providers ?? {})) {
      providers[name] = { ...providers[name], ...providerSettings(p), models: { ...providers[name]?.models, ...modelSettings(p.models) } };
      sources.providers = layer.sourceOf(['providers', name]);
    }
    if (layer.data.fallback !== undefined) {
      fallback = layer.data.fallback;
      sources.fallback = layer.sourceOf(['fallback']);
    }
  }

  const maxTokens = top('max_tokens')?.value ?? DEFAULT_MAX_TOKENS;
  const thinking = top('thinking_budget');
  // The API rejects a thinking budget that does not fit under max_tokens; say so now, at its source.
  if (thinking && thinking.value >= maxTokens) {
    throw thinking.layer.fail(['thinking_budget'], `must be less than max_tokens (${maxTokens})`);
  }

  const apiKey = env.ANTHROPIC_API_KEY ? new Secret(env.ANTHROPIC_API_KEY) : undefined;
  sources.apiKey = apiKey ? { kind: 'env', name: 'ANTHROPIC_API_KEY' } : { kind: 'default' };
  const ms = (seconds: number): number => Math.round(seconds * 1000);
  const config: Config = {
    model: top('model')?.value ?? DEFAULT_MODEL,
    maxTurns: top('max_turns')?.value,
    maxBudgetUsd: top('max_budget_usd')?.value,
    permissionMode: top('permission_mode')?.value ?? 'default',
    permissions: {
      allow: rules.filter((r) => r.list === 'allow').map((r) => r.rule),
      deny: rules.filter((r) => r.list === 'deny').map((r) => r.rule),
      ask: rules.filter((r) => r.list === 'ask').map((r) => r.rule),
    },
    addDirs,
    streamIdleTimeoutMs: ms(top('stream_idle_timeout')?.value ?? DEFAULT_STREAM_IDLE_TIMEOUT_S),
    bashTimeoutMs: ms(top('bash_timeout')?.value ?? DEFAULT_BASH_TIMEOUT_S),
    apiBaseUrl: top('api_base_url')?.value,
    apiKey,
    maxTokens,
    thinkingBudget: thinking?.value,
    maxConcurrentAgents: top('max_concurrent_agents')?.value,
    maxAgentDepth: top('max_agent_depth')?.value,
    keymap,
    providers,
    fallback,
  };
  const hooks: HooksConfig = {};
  const settingsEnv: Record<string, string> = {};
  for (const layer of layers) {
    addHooks(hooks, layer.data.hooks, layer.display ?? layer.scope);
    Object.assign(settingsEnv, layer.env);
  }
  return {
    config,
    sources,
    rules,
    projectRoot,
    files,
    loadedFiles,
    toolLimits: mergeToolLimits(layers),
    osSandbox: mergeOsSandbox(layers, env),
    checkpoints: mergeCheckpoints(layers),
    hooks,
    env: settingsEnv,
    untrusted,
    reload: () => loadConfig(opts),
  };
}
