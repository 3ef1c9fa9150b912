/**
 * The one place a session is assembled: store, tool registry (built-ins, the
 * skill and schedule tools, WebAssembly, MCP), sub-agents, hooks and the
 * provider. Every front end (-p, stream-json input, the TUI, an editor or MCP
 * server mode) is flags → `openSession` (or `assembleSession` when it opens
 * more than one session, as the TUI's /clear and /resume do) → its client of
 * the `SessionHost`.
 */
import { AgentSession, createSkillTool, TASK_TOOL_NAMES, type AgentSettings, type HookCallbackSet, type OpenOptions, type RememberRule, type SubagentDefinition, type SubagentSupport, type TurnCheckpoints } from '../agent/index.ts';
import { moatPaths, type Env, type LoadedConfig } from '../config/index.ts';
import { scheduleTool } from '../cron/index.ts';
import type { McpManager } from '../mcp/index.ts';
import type { ModelRouter, Provider } from '../providers/index.ts';
import { SessionHost, type SessionOwner } from '../protocol/index.ts';
import type { Skill } from '../skills/index.ts';
import { lazyStore, type Store } from '../store/index.ts';
import { builtinTools, ToolRegistry, type AnyTool } from '../tools/index.ts';
import { MoatError } from '../util/index.ts';
import { settingsHooks } from './hooks-setup.ts';
import { checkpointDeps } from './checkpoint-setup.ts';
import { attachMcp, startServers, startUncachedServers, type McpFlags, type ProgramServers } from './mcp-setup.ts';
import type { Elicit } from '../mcp/index.ts';
import { startAfterFirstRequest } from './mcp-start.ts';
import { subagentSetup } from './subagent-setup.ts';
import { attachWasmTools, storeIndex } from './wasm-tools.ts';

export interface OpenSessionOptions {
  loaded: LoadedConfig;
  /** Computed once by the front end (settingsFrom); `--tools` is written into its `onlyTools` here. Sessions opened later start from it as it is then. */
  settings: AgentSettings;
  router: ModelRouter;
  /** What the sessions' requests go to instead of the router's providers (`moat mcp serve --tools`: the MCP caller). */
  provider?: Provider;
  env: Env;
  skills: readonly Skill[];
  /** `--tools`: which tools are offered (undefined or "default": all). */
  tools?: string;
  /** `--agents` (and stream-json's initialize.agents): definitions added to (and overriding) the files'. */
  extraAgents?: readonly SubagentDefinition[];
  /** False (`--no-session-persistence`): an in-memory database, gone when moat exits. */
  persist?: boolean;
  /** `--mcp-config` / `--strict-mcp-config`. */
  mcp?: McpFlags;
  /** The Agent SDK program's in-process servers (stream-json), reached through it. */
  programMcp?: ProgramServers;
  /** Who answers MCP servers' elicitation requests; none: they are cancelled (as Claude Code's -p does). */
  elicit?: Elicit;
  /** The built-in tools as the front end runs them (an editor's own file access); default: as they are. */
  builtins?: (tools: AnyTool[]) => AnyTool[];
  warn(line: string): void;
  /**
   * A front end with a screen (the TUI): project MCP servers are approved
   * there, and the WebAssembly tools attach when it calls `attachTools`
   * (after its first frame) rather than before the assembly is returned.
   */
  interactive?: boolean;
  /** The front end answers permission questions (`permission_answer`); `remember` keeps "always" answers. Absent: nobody is asked (-p). */
  answers?: { remember: RememberRule };
  /** Hooks implemented by the front end's program (stream-json's initialize). */
  hookCallbacks?: HookCallbackSet;
}

/** What one process's sessions share. */
export interface SessionAssembly {
  readonly store: Store;
  readonly registry: ToolRegistry;
  readonly mcp: McpManager;
  readonly subagents: SubagentSupport;
  /** Names of the agent definitions (files and --agents). */
  readonly agentNames: string[];
  /** The project's checkpoints (rewind), unless `[checkpoints] enabled = false`. */
  readonly checkpoints: TurnCheckpoints | undefined;
  /** The environment variable the session's provider key comes from ('none' without one): Claude Code's `apiKeySource`. */
  apiKeySource(model: string): string;
  /**
   * Opens a session (new, resumed or forked) served by a host of its own, which owns its permission broker
   * and opens the sessions a `new_session` or `resume` operation asks for. `keeper`: what a front end that
   * keeps rules and trusts folders (the TUI) adds to the host's operations.
   */
  open(how?: OpenOptions, keeper?: SessionKeeper): { host: SessionHost<AgentSession>; session: AgentSession };
  /** The configuration was read again (the folder was trusted): sessions opened from now on get its hooks, which are returned for the open one. */
  reconfigure(loaded: LoadedConfig): HookCallbackSet | undefined;
  /** Attaches the WebAssembly tools (done already unless `interactive`); resolves once they are in, also on failure. */
  attachTools(warn: (line: string) => void): Promise<void>;
  /** Stops background sub-agents (their worktrees committed). Safe to call twice. */
  stopAgents(): Promise<void>;
  /** Stops sub-agents, MCP servers and the WebAssembly watcher, and closes the store. */
  close(): Promise<void>;
}

/** The settings files, the folder's trust and the process's controls, for the host's rule, `trust_project` and process operations. */
export type SessionKeeper = Pick<SessionOwner<AgentSession>, 'keepRule' | 'forgetRule' | 'trust' | 'checkModel' | 'controls'>;

/** One session and what it runs on. */
export interface OpenedSession {
  readonly assembly: SessionAssembly;
  readonly host: SessionHost<AgentSession>;
  readonly session: AgentSession;
  /** Ends the session (SessionEnd hooks; failures are returned) and closes the assembly. */
  close(reason?: Parameters<AgentSession['end']>[0]): Promise<string[]>;
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

/** Assembles what a front end's sessions run on; `open` then opens each of them. */
export async function assembleSession(o: OpenSessionOptions): Promise<SessionAssembly> {
  const { settings, env, router } = o;
  let loaded = o.loaded;
  const agents = subagentSetup(settings.cwd, env, { maxConcurrent: loaded.config.maxConcurrentAgents, maxDepth: loaded.config.maxAgentDepth }, o.extraAgents, settings.settingSources);
  // Opened on first use: a new session writes nothing before its first request is on its way (AgentSession.open).
  const store = lazyStore(o.persist === false ? ':memory:' : moatPaths(env).dbFile);
  let wasm: { close(): void } | undefined;
  let mcp: McpManager | undefined;
  let closed = false;
  try {
    const registry = new ToolRegistry([...(o.builtins ?? ((t) => t))(builtinTools()), createSkillTool(o.skills), scheduleTool({ repo: () => store.cron, cwd: settings.cwd })]);
    const attachTools = async (warn: (line: string) => void): Promise<void> => {
      if (wasm !== undefined) return;
      wasm = await attachWasmTools(registry, { env, projectRoot: loaded.projectRoot, index: storeIndex(store), toolLimits: loaded.toolLimits, warn });
      // The front end may have closed while they attached.
      if (closed) wasm.close();
    };
    if (o.interactive !== true) await attachTools(o.warn);
    const servers = attachMcp(registry, {
      loaded,
      env,
      cwd: settings.cwd,
      flags: o.mcp ?? { configs: [], strict: false },
      addDirs: loaded.config.addDirs,
      warn: o.warn,
      ...(o.programMcp === undefined ? {} : { program: o.programMcp }),
      ...(o.elicit === undefined ? {} : { elicit: o.elicit }),
      // With a screen, servers start at once and project servers are approved there; otherwise once the first request is out.
      ...(o.interactive === true ? { approvalInUi: true } : { startNow: false }),
    });
    mcp = servers;
    const only = onlyTools(o.tools, [...registry.names(), ...TASK_TOOL_NAMES]);
    if (only !== undefined) settings.onlyTools = only;
    // The same provider for every front end: the router, with MCP servers starting once the first request is on its way.
    const provider = o.provider ?? startAfterFirstRequest(router, () => startServers(servers, o.warn));
    let hooks = settingsHooks(loaded, settings, o.hookCallbacks);
    // Checkpoints before each turn that can change files, in the project's shadow repository (checkpoint-setup.ts).
    const { checkpoints } = checkpointDeps(loaded, store, env, o.warn);
    return {
      store,
      checkpoints,
      registry,
      mcp: servers,
      subagents: agents.support,
      agentNames: (agents.support.catalog?.list() ?? []).map((d) => d.name),
      apiKeySource: (model) => router.providers[router.resolve(model).provider]?.apiKeyEnv ?? 'none',
      open: (how = {}, keeper: SessionKeeper = {}) => {
        // Without a screen, a prompt's first request waits (each within its start-up timeout) for the servers
        // no earlier run left a tool list for, so that their tools are in it; servers with a list start after it.
        if (o.interactive !== true) {
          const servers = startUncachedServers(mcp, o.warn);
          how = { ...how, ready: how.ready === undefined ? servers : Promise.all([how.ready, servers]) };
        }
        const { host, agent } = SessionHost.open(
          {
            ...keeper,
            // A session opened by /clear or /resume starts with the model and mode set since (`start`).
            open: (ask, next, start = {}) =>
              AgentSession.open(
              {
                provider,
                models: router,
                registry,
                store,
                settings: { ...settings, ...start },
                subagents: agents.support,
                ...(hooks === undefined ? {} : { hooks }),
                ...(checkpoints === undefined ? {} : { checkpoints }),
                ...(ask === undefined || o.answers === undefined ? {} : { ask, remember: o.answers.remember }),
              },
              next,
            ),
            // A session left by /clear or /resume: its SessionEnd hooks run; a failure is a warning, not a stop.
            end: (left) => void left.end('clear').then((failures) => failures.forEach((f) => o.warn(`a SessionEnd hook failed: ${f}`))),
          },
          o.answers !== undefined,
          how,
        );
        return { host, session: agent };
      },
      reconfigure: (next) => {
        loaded = next;
        hooks = settingsHooks(next, settings, o.hookCallbacks);
        return hooks;
      },
      attachTools: (warn) => attachTools(warn).catch((e: unknown) => warn(`WebAssembly tools: ${e instanceof Error ? e.message : String(e)}`)),
      stopAgents: () => agents.shutdown(),
      close: async () => {
        closed = true;
        wasm?.close();
        await servers.close();
        await agents.shutdown();
        store.close();
      },
    };
  } catch (e) {
    closed = true;
    wasm?.close();
    await mcp?.close();
    await agents.shutdown();
    store.close();
    throw e;
  }
}

/** Assembles and opens one session: what -p, stream-json input and a single-session front end need. `how` may read the assembly (servers to wait for). */
export async function openSession(o: OpenSessionOptions, how: OpenOptions | ((assembly: SessionAssembly) => OpenOptions) = {}): Promise<OpenedSession> {
  const assembly = await assembleSession(o);
  try {
    const { host, session } = assembly.open(typeof how === 'function' ? how(assembly) : how);
    return {
      assembly,
      host,
      session,
      close: async (reason = 'other') => {
        try {
          return await session.end(reason);
        } finally {
          await assembly.close();
        }
      },
    };
  } catch (e) {
    await assembly.close();
    throw e;
  }
}
