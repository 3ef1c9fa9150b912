// Reads every place MCP servers are configured, merges them (later wins) and says which need the user's approval.
import { formatIssue, issueMessage, issuePath, type IssueLike } from '../contracts/index.ts';
import { readFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { claudeRecord, homeOf, lineOfPath, type ClaudeRecord, type ConfigFile, type Env } from '../config/index.ts';
import { errorMessage } from '../util/index.ts';
import { expandMap, expandVars } from './expand-vars.ts';
import { claudeApprovals, serverDefaults, type ServerDefaults } from './claude-compat.ts';
import {
  claudeEntryShape,
  type ClaudeEntry,
  claudeFileShape,
  CONFIG_SERVER_NAME,
  normalizeServerName,
  tomlEntryShape,
  type McpServerConfig,
  type ServerScope,
  type TomlEntry,
} from './server-config.ts';

export interface ServerSources {
  cwd: string;
  projectRoot: string;
  env: Env;
  /** `~/.config/moat/config.toml` */
  userConfigFile: string;
  /** `.moat/config.toml` at the project root */
  projectConfigFile: string;
  /** Both files as the config loader parsed and checked them (LoadedConfig.parsedFiles): read once, there. */
  parsedFiles: { user: ConfigFile | undefined; project: ConfigFile | undefined };
  /** `--mcp-config` values, each a file or JSON text. */
  mcpConfigs?: readonly string[];
  /** `--strict-mcp-config`: only the `--mcp-config` servers. */
  strict?: boolean;
  /** Project servers the user approved for this folder (projects.json). */
  approved?: readonly string[];
}

export interface LoadedServers {
  /** Every server defined, in definition order; `enabled: false` ones included (for `moat mcp list`). */
  servers: McpServerConfig[];
  /** Project-scoped servers that may not start: the user has not approved them for this folder. */
  needsApproval: string[];
  /** One line per skipped entry: file, key, what is wrong. */
  problems: string[];
}

/** The parts of a TOML table that change a server without defining it (no command, no url). */
type Override = { entry: TomlEntry; origin: string; line: number; baseDir: string };

const DISPLAY_HOME = (file: string, env: Env): string => {
  const home = homeOf(env);
  return file.startsWith(`${home}/`) ? `~/${file.slice(home.length + 1)}` : file;
};

function issueText(e: { issues: readonly IssueLike[] }): string {
  return formatIssue(e.issues[0]);
}

function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read: ${errorMessage(e)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new Error(`not valid JSON: ${errorMessage(e)}`);
  }
}

function baseOf(name: string, scope: ServerScope, origin: string, d: ServerDefaults) {
  return {
    name,
    scope,
    origin,
    enabled: true,
    startupTimeoutMs: d.startupTimeoutMs,
    toolTimeoutMs: d.toolTimeoutMs,
    enabledTools: undefined,
    disabledTools: [],
    trustAnnotations: false,
    maxOutputTokens: d.maxOutputTokens,
  };
}

const DEFAULT_SANDBOX = { enabled: true, allowWrite: [], networkAllow: [], allowLoopback: false };

/**
 * One Claude Code entry, checked by its schema (`.mcp.json`, `~/.claude.json`,
 * `--mcp-config`, `moat mcp add-json`). Throws a one-line Error naming the key.
 */
export function parseClaudeEntry(raw: unknown): ClaudeEntry {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new Error('must be an object');
  const entry = raw as Record<string, unknown>;
  if (entry.command === undefined && entry.url === undefined) throw new Error('needs command (a local server) or url (a remote one)');
  // One branch per shape, so the message is about the keys the entry has.
  const parsed = (entry.command !== undefined ? claudeEntryShape().options[0] : claudeEntryShape().options[1]).safeParse(entry.url !== undefined && entry.type === undefined ? { ...entry, type: 'http' } : entry);
  if (!parsed.success) throw new Error(issueText(parsed.error));
  return parsed.data;
}

/** One Claude Code entry → a server, with `${VAR}` expanded. Throws a one-line Error naming the key. */
function fromClaude(name: string, raw: unknown, scope: ServerScope, origin: string, baseDir: string, env: Env, d: ServerDefaults): McpServerConfig {
  const e = parseClaudeEntry(raw);
  if ('command' in e) {
    const cwd = e.cwd === undefined ? undefined : expandVars(e.cwd, env);
    return {
      ...baseOf(name, scope, origin, d),
      transport: 'stdio',
      command: expandVars(e.command, env),
      args: e.args.map((a) => expandVars(a, env)),
      env: expandMap(e.env, env),
      cwd: cwd === undefined ? undefined : resolve(baseDir, cwd),
      sandbox: { ...DEFAULT_SANDBOX },
    };
  }
  return {
    ...baseOf(name, scope, origin, d),
    transport: e.type === 'sse' ? 'sse' : 'http',
    url: expandVars(e.url, env),
    headers: expandMap(e.headers, env),
    bearerTokenEnvVar: undefined,
  };
}

function applyOverride(server: McpServerConfig, o: TomlEntry, baseDir: string): McpServerConfig {
  const out = { ...server };
  if (o.enabled !== undefined) out.enabled = o.enabled;
  if (o.startup_timeout_sec !== undefined) out.startupTimeoutMs = Math.round(o.startup_timeout_sec * 1000);
  if (o.startup_timeout_ms !== undefined) out.startupTimeoutMs = o.startup_timeout_ms;
  if (o.tool_timeout_sec !== undefined) out.toolTimeoutMs = Math.round(o.tool_timeout_sec * 1000);
  if (o.enabled_tools !== undefined) out.enabledTools = o.enabled_tools;
  if (o.disabled_tools !== undefined) out.disabledTools = o.disabled_tools;
  if (o.trust_annotations !== undefined) out.trustAnnotations = o.trust_annotations;
  if (o.max_output_tokens !== undefined) out.maxOutputTokens = o.max_output_tokens;
  if (out.transport === 'stdio' && o.sandbox !== undefined) {
    out.sandbox =
      o.sandbox === false
        ? { enabled: false, allowWrite: [], networkAllow: [], allowLoopback: false }
        : { enabled: true, allowWrite: o.sandbox.allow_write.map((p) => resolve(baseDir, p)), networkAllow: o.sandbox.network_allow, allowLoopback: o.sandbox.allow_loopback };
  }
  if (out.transport === 'http' || out.transport === 'sse') {
    if (o.http_headers !== undefined) out.headers = { ...out.headers, ...o.http_headers };
    if (o.bearer_token_env_var !== undefined) out.bearerTokenEnvVar = o.bearer_token_env_var;
  }
  return out;
}

/** A TOML table that defines a server (it has a command or a url). */
function fromToml(name: string, e: TomlEntry, scope: ServerScope, origin: string, baseDir: string, d: ServerDefaults): McpServerConfig {
  if (e.command !== undefined && e.url !== undefined) throw new Error('give either command (a local server) or url (a remote one), not both');
  const base = baseOf(name, scope, origin, d);
  const server: McpServerConfig =
    e.command !== undefined
      ? {
          ...base,
          transport: 'stdio',
          command: e.command,
          args: e.args ?? [],
          env: e.env ?? {},
          cwd: e.cwd === undefined ? undefined : resolve(baseDir, e.cwd),
          sandbox: { ...DEFAULT_SANDBOX },
        }
      : {
          ...base,
          transport: e.transport === 'sse' ? 'sse' : 'http',
          url: e.url ?? '',
          headers: e.http_headers ?? {},
          bearerTokenEnvVar: e.bearer_token_env_var,
        };
  return applyOverride(server, e, baseDir);
}

/** Collects definitions and overrides from all sources, in precedence order. */
class Collector {
  readonly defined = new Map<string, McpServerConfig>();
  readonly overrides = new Map<string, Override[]>();
  readonly problems: string[] = [];
  /** Names the user's own config enables explicitly: approval for a project server of that name in -p. */
  readonly userEnabled = new Set<string>();
  /** Each server's name by the form it takes in tool names. */
  private readonly byToolName = new Map<string, string>();
  trustProject = false;

  readonly defaults: ServerDefaults;

  constructor(private readonly env: Env) {
    this.defaults = serverDefaults(env, this.problems);
  }

  claudeFile(file: string, shown: string, scope: ServerScope, baseDir: string): void {
    let json: unknown;
    try {
      json = readJson(file);
    } catch (e) {
      this.problems.push(`${shown}: ${errorMessage(e)}`);
      return;
    }
    if (json === undefined) return;
    this.claudeJson(json, shown, scope, baseDir);
  }

  /** `~/.claude.json` (read once per process, by config/): the user's servers, and the ones Claude Code keeps for this project (its "local" scope). */
  claudeRecord(record: ClaudeRecord, shown: string, projectRoot: string, baseDir: string): void {
    if (record.error !== undefined) {
      this.problems.push(`${shown}: ${record.error}`);
      return;
    }
    if (!record.exists) return;
    const asObject = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
    const local = asObject(record.project(projectRoot)).mcpServers;
    this.claudeJson({ mcpServers: { ...asObject(record.mcpServers), ...asObject(local) } }, shown, 'claude-user', baseDir);
  }

  claudeJson(json: unknown, shown: string, scope: ServerScope, baseDir: string): void {
    const parsed = claudeFileShape().safeParse(json);
    if (!parsed.success) {
      this.problems.push(`${shown}: mcpServers: ${issueText(parsed.error)}`);
      return;
    }
    for (const [name, raw] of Object.entries(parsed.data.mcpServers)) {
      const bad = this.badName(name);
      if (bad !== undefined) {
        this.problems.push(`${shown}: mcpServers.${/^[A-Za-z0-9_-]+$/.test(name) ? name : JSON.stringify(name)}: ${bad}; server skipped`);
        continue;
      }
      try {
        this.defined.delete(name);
        this.defined.set(name, fromClaude(name, raw, scope, shown, baseDir, this.env, this.defaults));
      } catch (e) {
        this.problems.push(`${shown}: mcpServers.${name}: ${errorMessage(e)}; server skipped`);
      }
    }
  }

  /**
   * Why this name cannot be a server's, or undefined. Two names that make the
   * same tool names (`my.server` and `my_server`) would call each other's
   * tools: the one met later is refused.
   */
  badName(name: string): string | undefined {
    if (!CONFIG_SERVER_NAME.test(name)) return 'a server name must be 1 to 128 characters, none of them control characters';
    const key = normalizeServerName(name);
    const other = this.byToolName.get(key);
    if (other !== undefined && other !== name) return `its tool names (mcp__${key}__…) would be those of the server "${other}"`;
    this.byToolName.set(key, name);
    return undefined;
  }

  tomlFile(file: ConfigFile | undefined, scope: 'user' | 'project', baseDir: string): void {
    if (file === undefined) return;
    if (scope === 'user' && file.data.mcp?.trust_project === true) this.trustProject = true;
    for (const [name, raw] of Object.entries(file.data.mcp_servers ?? {})) {
      const at = (key?: PropertyKey): string => {
        const path = ['mcp_servers', name, ...(key === undefined ? [] : [String(key)])];
        const shown = path.map((p) => (/^[A-Za-z0-9_-]+$/.test(p) ? p : JSON.stringify(p))).join('.');
        return `${file.display}:${lineOfPath(file.outline, path)}: ${shown}`;
      };
      const bad = this.badName(name);
      if (bad !== undefined) {
        this.problems.push(`${at()}: ${bad}; server skipped`);
        continue;
      }
      const parsed = tomlEntryShape().safeParse(raw);
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        this.problems.push(`${at(first === undefined ? undefined : issuePath(first)[0])}: ${first === undefined ? 'invalid' : issueMessage(first)}; server skipped`);
        continue;
      }
      const entry = parsed.data;
      // A project file may restrict a server but never lift the sandbox: that is the user's call alone.
      if (scope === 'project' && entry.sandbox === false) {
        this.problems.push(`${at('sandbox')}: sandbox = false is only honoured in the user's own config; server skipped`);
        continue;
      }
      if (scope === 'user' && entry.enabled === true) this.userEnabled.add(name);
      if (entry.command === undefined && entry.url === undefined) {
        // Changing a server defined elsewhere: a project may narrow it, never widen its grants.
        const widening = scope === 'project' ? (['sandbox', 'trust_annotations'] as const).find((k) => entry[k] !== undefined) : undefined;
        if (widening !== undefined) {
          this.problems.push(`${at(widening)}: a project file cannot widen a server defined elsewhere; setting ignored`);
          continue;
        }
        const list = this.overrides.get(name) ?? [];
        list.push({ entry, origin: file.display, baseDir, line: lineOfPath(file.outline, ['mcp_servers', name]) });
        this.overrides.set(name, list);
        continue;
      }
      try {
        this.defined.delete(name);
        this.defined.set(name, fromToml(name, entry, scope, file.display, baseDir, this.defaults));
      } catch (e) {
        this.problems.push(`${at()}: ${errorMessage(e)}; server skipped`);
      }
    }
  }

  result(): McpServerConfig[] {
    const out: McpServerConfig[] = [];
    for (const [name, server] of this.defined) {
      let s = server;
      for (const o of this.overrides.get(name) ?? []) {
        // The project's tables may switch a server off or narrow it; the sandbox check above already ran.
        s = applyOverride(s, o.entry, o.baseDir);
      }
      out.push(s);
    }
    for (const [name, list] of this.overrides) {
      if (this.defined.has(name)) continue;
      const o = list[0] as Override;
      // `enabled = true` alone in the user config approves a project server; anything else without a server is a mistake.
      if (list.every((x) => Object.keys(x.entry).every((k) => k === 'enabled'))) continue;
      this.problems.push(`${o.origin}:${o.line}: mcp_servers.${name}: needs command (a local server) or url (a remote one)`);
    }
    return out;
  }
}

/**
 * One `--mcp-config` value: a file, or the JSON text itself (what the Claude
 * Agent SDK passes). Relative files resolve against cwd.
 */
function readFlagConfig(value: string, cwd: string, c: Collector): void {
  const text = value.trim();
  if (text.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      c.problems.push(`--mcp-config: not valid JSON: ${errorMessage(e)}`);
      return;
    }
    c.claudeJson(json, '--mcp-config', 'flag', cwd);
    return;
  }
  const file = isAbsolute(text) ? text : resolve(cwd, text);
  let json: unknown;
  try {
    json = readJson(file);
  } catch (e) {
    c.problems.push(`--mcp-config ${text}: ${errorMessage(e)}`);
    return;
  }
  if (json === undefined) {
    c.problems.push(`--mcp-config ${text}: no such file`);
    return;
  }
  c.claudeJson(json, text, 'flag', cwd);
}

/**
 * Every configured server, merged. Precedence (later wins, per server name):
 * `~/.claude.json`, the user's config.toml, the project's `.mcp.json`, the
 * project's `.moat/config.toml`, then `--mcp-config`. A bad entry is one
 * problem line and that server is skipped; the others still load.
 */
export function loadServers(o: ServerSources): LoadedServers {
  const c = new Collector(o.env);
  if (o.strict !== true) {
    const claudeJson = join(homeOf(o.env), '.claude.json');
    c.claudeRecord(claudeRecord(homeOf(o.env), o.projectRoot), DISPLAY_HOME(claudeJson, o.env), o.projectRoot, o.cwd);
    c.tomlFile(o.parsedFiles.user, 'user', homeOf(o.env));
    if (o.projectConfigFile !== o.userConfigFile) {
      c.claudeFile(join(o.projectRoot, '.mcp.json'), '.mcp.json', 'project', o.projectRoot);
      c.tomlFile(o.parsedFiles.project, 'project', o.projectRoot);
    }
  }
  for (const value of o.mcpConfigs ?? []) readFlagConfig(value, o.cwd, c);
  // What the user decided about this project's .mcp.json in Claude Code holds here too.
  const claude = o.strict === true ? undefined : claudeApprovals(o.env, o.projectRoot, c.problems);
  const fromMcpJson = (s: McpServerConfig): boolean => s.scope === 'project' && s.origin === '.mcp.json';
  const servers = c.result().map((s) => (claude?.disabled.has(s.name) === true && fromMcpJson(s) ? { ...s, enabled: false } : s));
  const approved = new Set(o.approved ?? []);
  const claudeApproved = (s: McpServerConfig): boolean => claude !== undefined && fromMcpJson(s) && (claude.all || claude.enabled.has(s.name));
  const needsApproval = servers
    .filter((s) => s.scope === 'project' && s.enabled && !c.trustProject && !approved.has(s.name) && !c.userEnabled.has(s.name) && !claudeApproved(s))
    .map((s) => s.name);
  return { servers, needsApproval, problems: c.problems };
}
