/** What `-p` and stream-json input share: the store, the tool registry and sub-agents for one session. */
import { createSkillTool, TASK_TOOL_NAMES, type AgentSettings, type SubagentDefinition, type SubagentSupport } from '../agent/index.ts';
import { moatPaths, type Env, type LoadedConfig } from '../config/index.ts';
import type { Skill } from '../skills/index.ts';
import { lazyStore, type Store } from '../store/index.ts';
import { builtinTools, ToolRegistry, type AnyTool } from '../tools/index.ts';
import { MoatError } from '../util/index.ts';
import { subagentSetup } from './subagent-setup.ts';
import { attachWasmTools, storeIndex } from './wasm-tools.ts';
import { attachMcp, startServers, type McpFlags, type ProgramServers } from './mcp-setup.ts';
import { scheduleTool } from '../cron/index.ts';
import { startAfterFirstRequest } from './mcp-start.ts';
import type { Provider } from '../providers/index.ts';
import type { McpManager } from '../mcp/index.ts';

export interface SessionParts {
  store: Store;
  registry: ToolRegistry;
  /** MCP servers; their tools join the registry as they connect. */
  mcp: McpManager;
  /** The provider for the session: the MCP servers start once its first request is on its way (mcp-start.ts). */
  withMcpStart(provider: Provider): Provider;
  subagents: SubagentSupport;
  /** Names of the agent definitions (files and --agents). */
  agentNames: string[];
  /** Stops background sub-agents (their worktrees committed). Safe to call twice. */
  stopAgents(): Promise<void>;
  /** Stops sub-agents, the WASM watcher, and closes the store. */
  close(): Promise<void>;
}

export interface SetupOptions {
  loaded: LoadedConfig;
  settings: AgentSettings;
  env: Env;
  skills: readonly Skill[];
  /** `--tools`: which tools are offered (undefined or "default": all); written into `settings.onlyTools`. */
  tools?: string;
  /** `--agents`: definitions added to (and overriding) the files'. */
  extraAgents?: readonly SubagentDefinition[];
  /** `--no-session-persistence`: an in-memory database, gone when moat exits. */
  persist: boolean;
  /** `--mcp-config` / `--strict-mcp-config`. */
  mcp?: McpFlags;
  /** The Agent SDK program's in-process servers: started at once (the first request waits for them). */
  programMcp?: ProgramServers;
  /** The built-in tools as the front end runs them (an editor's own file access); default: as they are. */
  builtins?: (tools: AnyTool[]) => AnyTool[];
  warn(line: string): void;
}

/**
 * `--tools`: "default" (or absent) offers every tool, "" none, and a comma
 * or space list exactly those (any case). A name no tool has is a usage
 * error naming the ones there are.
 */
export function onlyTools(spec: string | undefined, known: readonly string[]): string[] | undefined {
  if (spec === undefined || spec.trim() === 'default') return undefined;
  const wanted = spec.split(/[,\s]+/).filter((n) => n !== '');
  const names = new Set(known.map((n) => n.toLowerCase()));
  const unknown = wanted.filter((n) => !names.has(n.toLowerCase()));
  if (unknown.length > 0) {
    throw new MoatError('usage', `--tools: unknown tool${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the tools are ${known.join(', ')}`);
  }
  return wanted;
}

export async function setUpSession(o: SetupOptions): Promise<SessionParts> {
  const { loaded, settings, env } = o;
  const agents = subagentSetup(settings.cwd, env, { maxConcurrent: loaded.config.maxConcurrentAgents, maxDepth: loaded.config.maxAgentDepth }, o.extraAgents);
  // Opened on first use: a new session writes nothing before its first request is on its way (AgentSession.open).
  const store = lazyStore(o.persist ? moatPaths(env).dbFile : ':memory:');
  let wasm: { close(): void } | undefined;
  let mcp: McpManager | undefined;
  try {
    const registry = new ToolRegistry([...(o.builtins ?? ((t) => t))(builtinTools()), createSkillTool(o.skills), scheduleTool({ repo: () => store.cron, cwd: settings.cwd })]);
    wasm = await attachWasmTools(registry, {
      env,
      projectRoot: loaded.projectRoot,
      index: storeIndex(store),
      toolLimits: loaded.toolLimits,
      warn: o.warn,
    });
    mcp = attachMcp(registry, { loaded, env, cwd: settings.cwd, flags: o.mcp ?? { configs: [], strict: false }, addDirs: loaded.config.addDirs, warn: o.warn, startNow: false, ...(o.programMcp === undefined ? {} : { program: o.programMcp }) });
    const only = onlyTools(o.tools, [...registry.names(), ...TASK_TOOL_NAMES]);
    if (only !== undefined) settings.onlyTools = only;
    const closeWasm = wasm;
    const closeMcp = mcp;
    return {
      store,
      registry,
      mcp,
      withMcpStart: (provider) => startAfterFirstRequest(provider, () => startServers(closeMcp, o.warn)),
      subagents: agents.support,
      agentNames: (agents.support.catalog?.list() ?? []).map((d) => d.name),
      stopAgents: () => agents.shutdown(),
      close: async () => {
        closeWasm.close();
        await closeMcp.close();
        await agents.shutdown();
        store.close();
      },
    };
  } catch (e) {
    wasm?.close();
    await mcp?.close();
    await agents.shutdown();
    store.close();
    throw e;
  }
}
