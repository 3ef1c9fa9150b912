import { join } from 'node:path';
import { SubagentManager, type AgentCatalog, type SubagentSupport } from '../agent/index.ts';
import { moatPaths } from '../config/index.ts';
import { loadAgentDefinitions, type AgentDefinition } from '../skills/index.ts';
import { definitionRoots, reportIssues } from './skill-command.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Where running agents announce themselves for `moat agents stop` (one folder per user, any repository). */
export function agentControlDir(env: Env): string {
  return join(moatPaths(env).dataDir, 'agents');
}

function catalogOf(defs: readonly AgentDefinition[]): AgentCatalog {
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
): { support: SubagentSupport; shutdown(): Promise<void> } {
  const loaded = loadAgentDefinitions(definitionRoots(cwd, env));
  reportIssues(loaded.issues);
  const manager = new SubagentManager({ ...limits, controlDir: agentControlDir(env) });
  return { support: { manager, catalog: catalogOf(loaded.items) }, shutdown: () => manager.shutdown() };
}
