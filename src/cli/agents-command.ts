/** `moat agents`: the agent definitions and sub-agents, listed. */
import { resolve } from 'node:path';
import { loadAgentDefinitions, type AgentDefinition } from '../skills/index.ts';
import { EXIT } from './exit-codes.ts';
import { definitionRoots, reportIssues } from './skill-setup.ts';
import { out } from './write-out.ts';

export function formatAgentList(agents: readonly AgentDefinition[]): string {
  if (agents.length === 0) return 'no agent definitions\n';
  const rows = agents.map((a) => [a.name, a.source, a.model ?? 'inherit', a.tools ? a.tools.join(',') : 'all tools', a.description]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return rows.map((r) => `${r.map((cell, i) => (i < 4 ? cell.padEnd(widths[i] ?? 0) : cell)).join('  ')}\n`).join('');
}

export const agentsCommands = {
  /** The definitions available to the `task` tool: bundled, the user's and the project's. */
  async agentsList(opts: { cwd?: string }): Promise<number> {
    const loaded = loadAgentDefinitions(definitionRoots(resolve(opts.cwd ?? process.cwd())));
    reportIssues(loaded.issues);
    out(formatAgentList(loaded.items));
    return EXIT.ok;
  },
};
