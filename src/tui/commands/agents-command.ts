/**
 * `/agents`: the agent definitions the model can run, this process's
 * sub-agents and the repository's moat worktrees, then a picker to act on
 * one (stop a running agent; diff, merge or remove a finished agent's
 * worktree). The same actions as subcommands, for the keyboard-minded and
 * for scripts: `/agents stop|diff|merge|rm ID`.
 */
import type { AgentInfo, MergeOutcome } from '../../agent/index.ts';
import type { WorktreeView } from '../views.ts';
import { activityText } from '../render/agent-card.ts';
import { c, GLYPH } from '../render/theme.ts';
import { formatDuration } from '../render/tool-card.ts';
import type { PickerItem } from '../state/ui-state.ts';
import type { CommandContext } from './slash-commands.ts';

export const AGENTS_USAGE = 'Usage: /agents [stop|diff|merge|rm <id>] (rm --force removes unmerged work)';

const filesCell = (w: WorktreeView) => {
  const added = w.files.reduce((n, f) => n + (f.added ?? 0), 0);
  const removed = w.files.reduce((n, f) => n + (f.removed ?? 0), 0);
  return `${w.files.length} file${w.files.length === 1 ? '' : 's'} +${added} -${removed}`;
};

const going = (a: AgentInfo) => a.status === 'queued' || a.status === 'running';

function agentLine(a: AgentInfo, cwd: string, now: number): string {
  const k = c();
  const mark = a.status === 'done' ? k.green(GLYPH.ok) : a.status === 'failed' ? k.red(GLYPH.error) : a.status === 'stopped' ? k.gray('■') : k.cyan(GLYPH.bullet);
  const time = a.startedAt === undefined ? '' : ` · ${formatDuration((a.finishedAt ?? now) - a.startedAt)}`;
  const doing = a.status === 'running' ? ` · ${activityText(a.lastActivity, cwd)}` : '';
  const where = [a.background ? 'background' : 'foreground', a.worktree ? `branch ${a.worktree.branch}` : undefined].filter(Boolean).join(' · ');
  return `  ${mark} ${a.agentId}  ${a.status.padEnd(7)}  ${a.description}${k.dim(`${doing} · ${a.turns} turn${a.turns === 1 ? '' : 's'}${time} · ${where}`)}`;
}

/** The listing printed into the transcript. */
export function agentsListing(ctx: CommandContext, worktrees: readonly WorktreeView[], now = Date.now()): string[] {
  const k = c();
  const cwd = ctx.queries.info().cwd;
  const defs = ctx.queries.agentDefinitions();
  const agents = ctx.queries.subagents();
  const lines = [k.bold('Agent definitions'), ...(defs.length === 0 ? [k.dim('  none')] : defs.map((d) => `  ${d.name.padEnd(10)} ${k.dim(d.description.replace(/\s+/g, ' ').slice(0, 90))}`))];
  lines.push('', k.bold('Sub-agents'));
  lines.push(...(agents.length === 0 ? [k.dim('  none yet: the model starts them with the Task tool')] : agents.map((a) => agentLine(a, cwd, now))));
  if (worktrees.length > 0) {
    lines.push('', k.bold('Worktrees'));
    lines.push(...worktrees.map((w) => `  ${w.id}  ${w.state.padEnd(11)}  ${filesCell(w).padEnd(16)}  ${w.branch}  ${k.dim(w.description.slice(0, 50))}`));
  }
  lines.push(k.dim('  /agents stop|diff|merge|rm <id> · or choose below'));
  return lines;
}

/** What a merge did, in the words `moat worktrees merge` uses; a conflict says how to finish or undo it. */
export function mergeLines(id: string, branch: string, o: MergeOutcome): { level: 'info' | 'warning' | 'error'; lines: string[] } {
  switch (o.kind) {
    case 'merged':
      return { level: 'info', lines: [`Merged ${branch} into the current branch.`, ...(o.summary ? o.summary.split('\n').map((l) => `  ${l}`) : []), `Remove the worktree and its branch with /agents rm ${id}.`] };
    case 'up_to_date':
      return { level: 'info', lines: [`${branch} is already merged into the current branch (/agents rm ${id} removes it).`] };
    case 'conflict':
      return {
        level: 'error',
        lines: [
          `Merging ${branch} stopped with conflicts in:`,
          ...o.files.map((f) => `  ${f}`),
          'The merge is in progress (git status shows it). Resolve the conflicts, `git add` the files and `git commit`,',
          'or undo the merge with `git merge --abort` (e.g. !git merge --abort).',
        ],
      };
    case 'refused':
      return { level: 'error', lines: [`git refused to merge ${branch}; nothing was changed: ${o.reason}`] };
  }
}

function stop(ctx: CommandContext, id: string): void {
  const agents = ctx.queries.subagents().filter((a) => going(a) && a.agentId.startsWith(id));
  if (agents.length !== 1) {
    const running = ctx.queries.subagents().filter(going).map((a) => a.agentId);
    ctx.notice('warning', agents.length > 1 ? `Agent id ${id} is ambiguous: ${agents.map((a) => a.agentId).join(', ')}` : `No running sub-agent ${id}${running.length > 0 ? ` (running: ${running.join(', ')})` : ''}.`);
    return;
  }
  const agent = agents[0]!;
  try {
    ctx.session.submit({ type: 'stop_subagent', agentId: agent.agentId });
  } catch {
    // It ended between the listing and the stop.
    ctx.notice('warning', `Sub-agent ${agent.agentId} already ended.`);
    return;
  }
  ctx.notice('info', `Stopping sub-agent ${agent.agentId} (${agent.description}); its work so far is committed on its branch.`);
}

async function diff(ctx: CommandContext, id: string): Promise<void> {
  const stat = await ctx.queries.worktreeDiffStat(id);
  ctx.print([c().bold(`Changes of worktree ${id}`), ...(stat.trim() ? stat.trimEnd().split('\n').map((l) => `  ${l}`) : [c().dim('  no changes')])]);
}

async function merge(ctx: CommandContext, id: string): Promise<void> {
  const { branch, outcome } = await ctx.session.request({ type: 'merge_worktree', id });
  const { level, lines } = mergeLines(id, branch, outcome);
  if (level === 'info') ctx.print(lines);
  else ctx.notice(level, lines.join('\n'));
}

async function remove(ctx: CommandContext, id: string, force: boolean): Promise<void> {
  const { branch } = await ctx.session.request({ type: 'remove_worktree', id, force });
  ctx.notice('info', `Removed worktree ${id} and branch ${branch}.`);
}

/** The second picker: what to do with one worktree. */
function worktreeActions(ctx: CommandContext, w: WorktreeView): void {
  const items: PickerItem[] = [
    { label: 'Show the diff stat', value: 'diff' },
    ...(w.state === 'ready' || w.state === 'interrupted' ? [{ label: 'Merge into the current branch', value: 'merge' }] : []),
    ...(w.state === 'merged' || w.state === 'missing' ? [{ label: 'Remove the worktree and its branch', value: 'rm' }] : []),
    ...(w.state === 'ready' || w.state === 'interrupted' ? [{ label: 'Remove it, discarding its unmerged work', value: 'rm-force' }] : []),
  ];
  ctx.openPicker({
    title: `Worktree ${w.id} · ${w.branch} · ${w.state} · ${filesCell(w)}`,
    items,
    onSelect: (v) => ctx.background(v === 'diff' ? diff(ctx, w.id) : v === 'merge' ? merge(ctx, w.id) : remove(ctx, w.id, v === 'rm-force')),
  });
}

async function overview(ctx: CommandContext): Promise<void> {
  const worktrees = await ctx.queries.listWorktrees();
  ctx.print(agentsListing(ctx, worktrees));
  const k = c();
  const running = ctx.queries.subagents().filter(going);
  const items: PickerItem[] = [
    ...running.map((a) => ({ label: `Stop ${a.agentId}  ${a.description}`, detail: `${a.status} · ${a.background ? 'background' : 'foreground'}`, value: `stop:${a.agentId}` })),
    ...worktrees.filter((w) => w.state !== 'running').map((w) => ({ label: `${w.id}  ${w.description}`, detail: `${w.state} · ${filesCell(w)} · ${w.branch}`, value: `wt:${w.id}` })),
  ];
  if (items.length === 0) return;
  ctx.openPicker({
    title: `Sub-agents ${k.dim('— choose one to stop it, or a worktree to diff, merge or remove it')}`,
    items,
    onSelect: (v) => {
      if (v.startsWith('stop:')) stop(ctx, v.slice(5));
      const w = worktrees.find((x) => `wt:${x.id}` === v);
      if (w) worktreeActions(ctx, w);
    },
  });
}

export function agentsCommand(arg: string, ctx: CommandContext): void {
  const [verb = '', id = '', flag = ''] = arg.split(/\s+/).filter(Boolean);
  if (!verb) {
    ctx.background(overview(ctx));
    return;
  }
  if (!['stop', 'diff', 'merge', 'rm'].includes(verb) || !id || (flag && !(verb === 'rm' && flag === '--force'))) {
    ctx.notice('warning', AGENTS_USAGE);
    return;
  }
  if (verb === 'stop') stop(ctx, id);
  else if (verb === 'diff') ctx.background(diff(ctx, id));
  else if (verb === 'merge') ctx.background(merge(ctx, id));
  else ctx.background(remove(ctx, id, flag === '--force'));
}
