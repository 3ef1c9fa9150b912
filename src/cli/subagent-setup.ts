/** Sub-agent support for one moat process: the shared manager and the agent definitions. */
import { join } from 'node:path';
import { SubagentManager, type AgentCatalog, type SubagentDefinition, type SubagentSupport } from '../agent/index.ts';
import { moatPaths } from '../config/index.ts';
import { loadAgentDefinitions } from '../skills/index.ts';
import { definitionRoots, reportIssues } from './skill-setup.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Where running agents announce themselves for `moat agents stop` (one folder per user, any repository). */
export function agentControlDir(env: Env): string {
  return join(moatPaths(env).dataDir, 'agents');
}

function catalogOf(defs: readonly SubagentDefinition[]): AgentCatalog {
  return {
    get: (name) => defs.find((d) => d.name === name),
    list: () => [...defs],
  };
}

/**
 * Sub-agent support for one moat process: the manager every session of the
 * process shares (concurrency, stop, shutdown) and the agent definitions
 * found from cwd. Call `shutdown` before exiting: it stops background agents
 * and waits until their worktrees are committed or removed.
 */
export function subagentSetup(
  cwd: string,
  env: Env,
  /** From config (`max_concurrent_agents`, `max_agent_depth`); the manager's defaults (4, 2) when unset. */
  limits: { maxConcurrent?: number; maxDepth?: number } = {},
  /** `--agents` or an SDK's initialize: these win over files with the same name. */
  extra: readonly SubagentDefinition[] = [],
  /** `--setting-sources`: only these sources' agent files. */
  sources?: readonly ('user' | 'project' | 'local')[],
): { support: SubagentSupport; shutdown(): Promise<void> } {
  const loaded = loadAgentDefinitions(definitionRoots(cwd, env, sources));
  reportIssues(loaded.issues);
  const manager = new SubagentManager({ ...limits, controlDir: agentControlDir(env) });
  const names = new Set(extra.map((d) => d.name));
  const defs: SubagentDefinition[] = [...loaded.items.filter((d) => !names.has(d.name)), ...extra];
  return { support: { manager, catalog: catalogOf(defs) }, shutdown: () => manager.shutdown() };
}
