/** What `-p` and stream-json input share: the store, the tool registry and sub-agents for one session. */
import { createSkillTool, type AgentSettings, type SubagentDefinition, type SubagentSupport } from '../agent/index.ts';
import { moatPaths, type Env, type LoadedConfig } from '../config/index.ts';
import type { Skill } from '../skills/index.ts';
import { openStore, type Store } from '../store/index.ts';
import { builtinTools, ToolRegistry, type AnyTool } from '../tools/index.ts';
import { MoatError } from '../util/index.ts';
import { subagentSetup } from './subagent-setup.ts';
import { attachWasmTools, storeIndex } from './wasm-tools.ts';

export interface SessionParts {
  store: Store;
  registry: ToolRegistry;
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
  /** `--tools`: which built-in tools are offered (undefined or "default": all). */
  tools?: string;
  /** `--agents`: definitions added to (and overriding) the files'. */
  extraAgents?: readonly SubagentDefinition[];
  /** `--no-session-persistence`: an in-memory database, gone when moat exits. */
  persist: boolean;
  warn(line: string): void;
}

/**
 * `--tools`: "default" (or absent) keeps every built-in tool, "" none, and a
 * comma or space list exactly those (Claude Code's names, any case). An
 * unknown name is a usage error naming the ones there are.
 */
export function selectTools(tools: readonly AnyTool[], spec: string | undefined): AnyTool[] {
  if (spec === undefined || spec.trim() === 'default') return [...tools];
  const wanted = spec.split(/[,\s]+/).filter((n) => n !== '');
  const byName = new Map(tools.map((t) => [t.name.toLowerCase(), t]));
  const unknown = wanted.filter((n) => !byName.has(n.toLowerCase()));
  if (unknown.length > 0) {
    throw new MoatError('usage', `--tools: unknown tool${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; the built-in tools are ${tools.map((t) => t.name).join(', ')}`);
  }
  return wanted.map((n) => byName.get(n.toLowerCase())!);
}

export async function setUpSession(o: SetupOptions): Promise<SessionParts> {
  const { loaded, settings, env } = o;
  const agents = subagentSetup(settings.cwd, env, { maxConcurrent: loaded.config.maxConcurrentAgents, maxDepth: loaded.config.maxAgentDepth }, o.extraAgents);
  const store = openStore(o.persist ? moatPaths(env).dbFile : ':memory:');
  let wasm: { close(): void } | undefined;
  try {
    const registry = new ToolRegistry(selectTools([...builtinTools(), createSkillTool(o.skills)], o.tools));
    wasm = await attachWasmTools(registry, {
      env,
      projectRoot: loaded.projectRoot,
      index: storeIndex(store),
      toolLimits: loaded.toolLimits,
      warn: o.warn,
    });
    const closeWasm = wasm;
    return {
      store,
      registry,
      subagents: agents.support,
      agentNames: (agents.support.catalog?.list() ?? []).map((d) => d.name),
      stopAgents: () => agents.shutdown(),
      close: async () => {
        closeWasm.close();
        await agents.shutdown();
        store.close();
      },
    };
  } catch (e) {
    wasm?.close();
    await agents.shutdown();
    store.close();
    throw e;
  }
}
