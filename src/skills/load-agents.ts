/** Loads every agent definition visible from a project. */
import { readFileSync } from 'node:fs';
import { agentBaseName, parseAgentFile } from './agent-file.ts';
import { bundledAgents } from './bundled.ts';
import { issueFrom } from './load-skills.ts';
import { mergeByName } from './merge.ts';
import { entriesOf } from './read-dir.ts';
import { sourceDirs, type DefinitionRoots, type SourceDir } from './sources.ts';
import type { AgentDefinition, DefinitionIssue, Loaded } from './types.ts';

function agentsIn(src: SourceDir, issues: DefinitionIssue[]): AgentDefinition[] {
  const out: AgentDefinition[] = [];
  for (const entry of entriesOf(src.dir)) {
    if (!entry.isFile || !entry.name.endsWith('.md')) continue;
    try {
      out.push(parseAgentFile(readFileSync(entry.path, 'utf8'), { file: entry.path, baseName: agentBaseName(entry.name), source: src.source }));
    } catch (e) {
      issues.push(issueFrom(entry.path, e));
    }
  }
  return out;
}

/**
 * Every agent definition visible from a project: bundled, then the user's,
 * then the project's; a later one of the same name wins. Bad files are
 * returned as issues and skipped, never thrown.
 */
export function loadAgentDefinitions(roots: DefinitionRoots): Loaded<AgentDefinition> {
  const issues: DefinitionIssue[] = [];
  const groups = [
    { dir: '<bundled>', items: bundledAgents() },
    ...sourceDirs('agents', roots).map((src) => ({ dir: src.dir, items: agentsIn(src, issues) })),
  ];
  return { items: mergeByName(groups, issues), issues };
}
