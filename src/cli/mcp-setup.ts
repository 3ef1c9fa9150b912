/** Wiring of the MCP servers for one moat process: which to load, which may start, and their tools in the registry. */
import pkg from '../../package.json' with { type: 'json' };
import { displayPath, homeOf, moatPaths, projectTrust, type Env, type LoadedConfig } from '../config/index.ts';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { fileToolListCache, mayDefineServers, McpManager, programServerConfig, serverLoader, type Elicit, type LoadedServers, type ServerSandboxSettings, type ServerSources, type ServerStatus } from '../mcp/index.ts';
import { parseRuleList, type ToolRegistry } from '../tools/index.ts';
import { errorMessage, MoatError } from '../util/index.ts';
import { sandboxSettingsFrom } from './os-sandbox-setup.ts';

/** `--mcp-config` (repeatable) and `--strict-mcp-config`. */
export interface McpFlags {
  configs: readonly string[];
  strict: boolean;
}

export interface McpSetupOptions {
  loaded: LoadedConfig;
  env: Env;
  cwd: string;
  flags: McpFlags;
  /** Folders announced to servers as roots, besides cwd. */
  addDirs: readonly string[];
  warn(line: string): void;
  /** false: the caller starts the servers (McpManager.startAll) when it suits it. Default true. */
  startNow?: boolean;
  /** The TUI asks for the project's servers itself: no warning line about them. */
  approvalInUi?: boolean;
  /** The driving program's own servers (the Agent SDK's in-process ones), reached through it. */
  program?: ProgramServers;
  /** Who answers servers' elicitation requests (the TUI's form, the SDK program); none: they are cancelled. */
  elicit?: Elicit;
}

/** In-process servers of the program that drives moat over stream-json. */
export interface ProgramServers {
  names: readonly string[];
  transport(name: string): Transport;
}

/**
 * The user's `[sandbox]` settings as stdio servers run under them: the mode
 * (`required` refuses a server it cannot sandbox), deny_read/deny_write and
 * the deny rules' paths, scrub_env. Their grants (write, network) stay each
 * server's own: a server gets no more than its `[mcp_servers.<name>.sandbox]`.
 */
export function mcpSandbox(loaded: LoadedConfig, env: Env): ServerSandboxSettings {
  let deny;
  try {
    deny = parseRuleList(loaded.config.permissions.deny);
  } catch (e) {
    throw new MoatError('usage', `deny rules: ${errorMessage(e)}`);
  }
  const s = sandboxSettingsFrom(loaded, { allow: [], deny }, homeOf(env), env);
  return { mode: s.mode, denyRead: s.denyRead, denyWrite: s.denyWrite, denyNetwork: s.denyNetwork, scrubEnv: s.scrubEnv };
}

/** The servers from every config file and flag, with the approvals for this project applied. */
export function loadMcpServers(o: Pick<McpSetupOptions, 'loaded' | 'env' | 'cwd' | 'flags'>): LoadedServers {
  const sources: ServerSources = {
    cwd: o.cwd,
    projectRoot: o.loaded.projectRoot,
    env: o.env,
    userConfigFile: o.loaded.files.user,
    projectConfigFile: o.loaded.files.project,
    parsedFiles: o.loaded.parsedFiles,
    mcpConfigs: o.flags.configs,
    strict: o.flags.strict,
  };
  // Most runs have no MCP config: then neither the loader nor projects.json is read. (Both
  // config.toml files passed the config loader already, which mayDefineServers relies on.)
  if (!mayDefineServers(sources)) return { servers: [], needsApproval: [], problems: [] };
  let approved: string[] = [];
  try {
    approved = projectTrust(o.loaded.projectRoot, moatPaths(o.env).configDir).approvedMcpServers;
  } catch {
    // An unreadable projects.json approves nothing; the config loader reports it where trust matters.
  }
  return serverLoader().loadServers({ ...sources, approved });
}

/**
 * Loads the servers, adds the manager to the registry as a live tool source
 * and starts every approved server in the background: nothing here waits for
 * a server, so start-up and the first model request never do.
 */
export function attachMcp(registry: ToolRegistry, o: McpSetupOptions): McpManager {
  const loaded = loadMcpServers(o);
  for (const p of loaded.problems) o.warn(`MCP: ${p}`);
  for (const name of o.approvalInUi === true ? [] : loaded.needsApproval) {
    const s = loaded.servers.find((x) => x.name === name);
    o.warn(
      `MCP server ${name} (${s?.origin ?? 'project'}) not started: this project's servers need your approval once (run moat mcp approve ${name}, approve it in moat's screen, or set [mcp] trust_project = true in ${displayPath(o.loaded.files.user, o.cwd, o.env)})`,
    );
  }
  const programNames = new Set(o.program?.names ?? []);
  const manager = new McpManager([...loaded.servers.filter((s) => !programNames.has(s.name)), ...[...programNames].map(programServerConfig)], {
    launch: { cwd: o.cwd, env: o.env, sandbox: mcpSandbox(o.loaded, o.env) },
    roots: [o.cwd, ...o.addDirs],
    clientVersion: pkg.version,
    needsApproval: loaded.needsApproval,
    // Imported when a remote server connects: statically, with root-command's worktree-run.ts, -p's first byte came 4.6 ms later (startup.ts, 20 runs).
    authProvider: async (server) => (await import('./mcp-auth.ts')).mcpAuthProvider(server, o.env),
    onFailure: (name, error) => o.warn(`MCP server ${name} failed: ${error}`),
    onNotice: (name, line) => o.warn(`MCP server ${name} ${line}`),
    userConfig: displayPath(o.loaded.files.user, o.cwd, o.env),
    resultsDir: moatPaths(o.env).toolResultsDir,
    // Lets the first request name a server's tools before it connects (read only for servers that are configured).
    toolCache: fileToolListCache(moatPaths(o.env).cacheDir),
    ...(o.program === undefined ? {} : { programTransport: o.program.transport }),
    ...(o.elicit === undefined ? {} : { elicit: o.elicit }),
  });
  registry.addSource(manager);
  if (o.startNow !== false) startServers(manager, o.warn);
  return manager;
}

/** McpManager.startUncached, settling (never failing) when the servers did; a failure to start is one warning line. */
export function startUncachedServers(manager: McpManager | undefined, warn: (line: string) => void): Promise<void> {
  if (manager === undefined) return Promise.resolve();
  try {
    return manager.startUncached().catch((e: unknown) => warn(`MCP: ${errorMessage(e)}`));
  } catch (e) {
    warn(`MCP: ${errorMessage(e)}`);
    return Promise.resolve();
  }
}

/** McpManager.startAll, with a failure to start (not of a server: of starting) as one warning line. */
export function startServers(manager: McpManager, warn: (line: string) => void): void {
  try {
    manager.startAll();
  } catch (e) {
    warn(`MCP: ${errorMessage(e)}`);
  }
}

/** stream-json `system/init`'s `mcp_servers`, in Claude Code's words. */
export function initServers(status: readonly ServerStatus[]): { name: string; status: string }[] {
  return status
    .filter((s) => s.state.status !== 'disabled')
    .map((s) => ({ name: s.name, status: s.state.status === 'connecting' || s.state.status === 'needs-approval' ? 'pending' : s.state.status }));
}

/**
 * `mcpServerStatus()` (the SDK's `mcp_status` control request): each server
 * in the SDK's McpServerStatus shape — status, error, serverInfo once
 * connected, scope, and the tools it offers.
 */
export function sdkServerStatus(status: readonly ServerStatus[]): Record<string, unknown>[] {
  return status.map((s) => {
    const state = s.state;
    const word = state.status === 'connecting' || state.status === 'needs-approval' ? 'pending' : state.status;
    return {
      name: s.name,
      status: word,
      ...(state.status === 'failed' || state.status === 'needs-auth' ? { error: state.error } : {}),
      ...(state.status === 'needs-approval' ? { error: `waiting for approval: run moat mcp approve ${s.name}` } : {}),
      ...(s.serverInfo === undefined ? {} : { serverInfo: s.serverInfo }),
      scope: s.scope === 'claude-user' ? 'user' : s.scope === 'flag' ? 'dynamic' : s.scope,
      ...(state.status === 'connected' ? { tools: s.tools.map((name) => ({ name })) } : {}),
    };
  });
}
