/** Text for sub-agent outcomes and changes: status lines and file change lists. */
import type { AgentInfo, SubagentOutcome } from './manager.ts';
import { formatAge } from '../../util/index.ts';
import type { WorktreeChanges } from './worktree.ts';

function usd(n: number): string {
  return `$${n.toFixed(4)}`;
}

/** `M src/a.ts (+3 -1)` lines and git's stat footer. */
export function changesText(c: WorktreeChanges): string {
  const lines = c.files.map((f) => `  ${f.status} ${f.path} ${f.added === null ? '(binary)' : `(+${f.added} -${f.removed ?? 0})`}`);
  const footer = c.diffStat.split('\n').at(-1)?.trim() ?? '';
  return [
    `Its changes are committed on branch ${c.branch} (worktree ${c.path}), not in your working folder:`,
    ...lines,
    ...(footer ? [`  ${footer}`] : []),
    `The user merges them with: moat worktrees merge ${c.id}`,
  ].join('\n');
}

/** What the model reads when a sub-agent ends: its answer first, then how it ended and what it changed. */
export function outcomeText(info: Pick<AgentInfo, 'agentId' | 'description'> & { isolation: 'worktree' | 'none' }, o: SubagentOutcome): string {
  const how =
    o.status === 'done'
      ? `Sub-agent ${info.agentId} ("${info.description}") finished`
      : `Sub-agent ${info.agentId} ("${info.description}") ${o.status}: ${o.error ?? o.stopReason}`;
  const parts = [o.result.trim() === '' ? '(The sub-agent gave no final answer.)' : o.result.trim(), '---', `${how} after ${o.turns} turn${o.turns === 1 ? '' : 's'}, ${usd(o.costUsd)}.`];
  if (o.changes) parts.push(changesText(o.changes));
  else if (info.isolation === 'worktree') parts.push('It changed no files (its worktree was removed).');
  else parts.push('It worked directly in your working folder (no isolation).');
  parts.push(...o.notes);
  return parts.join('\n');
}

/** One line per agent for task_status. */
export function statusLine(a: AgentInfo, now = Date.now()): string {
  const cells = [
    a.agentId,
    a.status,
    `${a.turns} turn${a.turns === 1 ? '' : 's'}`,
    usd(a.costUsd),
    `"${a.description}"`,
    a.status === 'running' ? `last: ${a.lastActivity} (${formatAge(a.lastActivityAt, now)})` : undefined,
    a.background ? 'background' : 'foreground',
    a.worktree ? `branch ${a.worktree.branch}` : undefined,
  ];
  return cells.filter((c): c is string => c !== undefined).join('  ');
}
