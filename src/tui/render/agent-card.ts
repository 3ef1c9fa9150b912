/**
 * A sub-agent as a card: what it was asked (description, definition,
 * background or not), then — while it runs — one status line (current tool,
 * turns, tokens, elapsed) and — once it ended — how it ended, the first
 * lines of its answer and, for a worktree agent, its branch and changed
 * files. Nested agents are one indented line each, capped, so a tree of
 * agents never floods the screen.
 */
import type { FileChange } from '../../agent/index.ts';
import type { AgentCard, SubagentView } from '../state/subagents.ts';
import { c, GLYPH } from './theme.ts';
import { argumentSummary, displayName } from './tool-args.ts';
import { formatDuration } from './tool-card.ts';
import { truncate, wrapText } from './wrap.ts';

export interface AgentCardOptions {
  width: number;
  cwd: string;
  now: number;
  /** Lines of the answer shown in a finished card. */
  resultLines?: number;
  /** Changed files listed before "… N more". */
  maxFiles?: number;
  /** Nested agents listed before "… N more". */
  maxChildren?: number;
}

const LEAD = `  ${GLYPH.result}  `;
const PAD = '     ';

export function compactTokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

/** `read {"file_path":"/r/a.txt"}` (the manager's words) → `Read(a.txt)`; other activities as they are. */
export function activityText(activity: string, cwd: string): string {
  const m = /^([A-Za-z][\w-]*) (\{.*)$/s.exec(activity);
  if (!m) return activity;
  const name = m[1] ?? '';
  try {
    const input: unknown = JSON.parse(m[2] ?? '');
    const args = typeof input === 'object' && input !== null && !Array.isArray(input) ? argumentSummary(name, input as Record<string, unknown>, cwd) : '';
    return `${displayName(name)}${args ? `(${args})` : ''}`;
  } catch {
    // Cut at 80 characters by the manager: the tool's name is what is left to show.
    return displayName(name);
  }
}

function bullet(a: SubagentView): string {
  const k = c();
  switch (a.status) {
    case 'done':
      return k.green(GLYPH.bullet);
    case 'failed':
      return k.red(GLYPH.bullet);
    case 'stopped':
      return k.gray(GLYPH.bullet);
    case 'running':
      return k.cyan(GLYPH.bullet);
    case 'queued':
      return k.dim(GLYPH.bullet);
  }
}

function elapsed(a: SubagentView, now: number): number {
  return a.durationMs ?? (a.startedAt === undefined ? 0 : now - a.startedAt);
}

/** `3 turns · 1.2k tokens · 12.0 s`: the counters every state shows. */
function counters(a: SubagentView, now: number, cost: boolean): string {
  const parts = [`${a.turns} turn${a.turns === 1 ? '' : 's'}`];
  if (a.tokens > 0) parts.push(`${compactTokens(a.tokens)} tokens`);
  if (cost && a.costUsd > 0) parts.push(`$${a.costUsd.toFixed(4)}`);
  if (a.status !== 'queued') parts.push(formatDuration(elapsed(a, now)));
  return parts.join(' · ');
}

/** One line: how it is doing now (running/queued) or how it ended. */
export function statusText(a: SubagentView, now: number, cwd: string): string {
  const k = c();
  switch (a.status) {
    case 'queued':
      return k.dim('Queued · waiting for a free slot');
    case 'running': {
      // Between calls ("thinking", "writing") the last tool says where it is in its task.
      const doing = a.lastTool !== undefined && a.lastTool !== a.activity ? `${a.activity} · last ${activityText(a.lastTool, cwd)}` : activityText(a.activity, cwd);
      return `${k.cyan(doing)} ${k.dim(`· ${counters(a, now, false)}`)}`;
    }
    case 'done':
      return k.dim(`Done · ${counters(a, now, true)}`);
    case 'failed':
      return k.red('Failed') + k.dim(` · ${counters(a, now, true)}`);
    case 'stopped':
      return k.gray(`Stopped · ${counters(a, now, true)}`);
  }
}

export function headerLine(a: SubagentView, width: number): string {
  const k = c();
  const tags = [a.agent, a.background ? 'background' : undefined, a.worktree ? 'worktree' : undefined].filter((t): t is string => t !== undefined);
  return truncate(`${bullet(a)} ${k.bold('Agent')}(${a.description})${tags.length > 0 ? k.dim(` · ${tags.join(' · ')}`) : ''}`, width);
}

function fileLine(f: FileChange): string {
  const k = c();
  const counts = f.added === null ? 'binary' : `${k.green(`+${f.added}`)} ${k.red(`-${f.removed ?? 0}`)}`;
  return `  ${f.status} ${f.path} ${counts}`;
}

/** The branch line and one line per changed file. */
export function changesLines(a: SubagentView, maxFiles: number): string[] {
  const k = c();
  if (!a.changes) return [];
  const files = a.changes.files;
  const added = files.reduce((n, f) => n + (f.added ?? 0), 0);
  const removed = files.reduce((n, f) => n + (f.removed ?? 0), 0);
  const lines = [`Branch ${k.bold(a.changes.branch)}: ${files.length} file${files.length === 1 ? '' : 's'} ${k.green(`+${added}`)} ${k.red(`-${removed}`)} ${k.dim('· /agents to merge')}`];
  lines.push(...files.slice(0, maxFiles).map(fileLine));
  if (files.length > maxFiles) lines.push(k.dim(`  ${GLYPH.ellipsis} ${files.length - maxFiles} more`));
  return lines;
}

/** Nested agents, one line each, indented by depth. */
export function childLines(children: AgentCard['children'], o: AgentCardOptions): string[] {
  const k = c();
  const max = o.maxChildren ?? 3;
  const lines = children.slice(0, max).map(({ depth, agent }) => {
    const indent = '  '.repeat(depth - 1);
    return `${indent}${bullet(agent)} ${agent.description} ${k.dim('·')} ${statusText(agent, o.now, o.cwd)}`;
  });
  if (children.length > max) lines.push(k.dim(`${GLYPH.ellipsis} ${children.length - max} more nested agents`));
  return lines;
}

function withLead(lines: string[], width: number): string[] {
  return lines.map((l, i) => truncate((i === 0 ? LEAD : PAD) + l, width));
}

/** While it runs: the header and one status line (plus nested agents). */
export function renderLiveAgentCard(card: AgentCard, o: AgentCardOptions): string[] {
  const a = card.agent;
  return [headerLine(a, o.width), ...withLead([statusText(a, o.now, o.cwd), ...childLines(card.children, o)], o.width)];
}

/** In scrollback: how it ended, its answer's first lines, its branch and files, its nested agents. */
export function renderAgentCard(card: AgentCard, o: AgentCardOptions): string[] {
  const k = c();
  const a = card.agent;
  if (a.status === 'queued' || a.status === 'running') {
    // A background agent's `task` call returns at once: its card says where to follow it.
    return [headerLine(a, o.width), ...withLead([k.dim(`Running in the background as agent ${a.agentId} · /agents to follow or stop it`)], o.width)];
  }
  const body = [statusText(a, o.now, o.cwd)];
  // Why it failed gets its own line: it is the one thing to read in a failed card.
  if (a.status === 'failed' && a.error) body.push(...wrapText(k.red(a.error), o.width - PAD.length));
  const answer = (a.result ?? '').trim();
  if (answer) {
    const max = o.resultLines ?? 4;
    const wrapped = answer
      .split('\n')
      .filter((l) => l.trim() !== '')
      .flatMap((l) => wrapText(l, o.width - PAD.length));
    body.push(...wrapped.slice(0, max));
    if (wrapped.length > max) body.push(k.dim(`${GLYPH.ellipsis} ${wrapped.length - max} more lines`));
  }
  body.push(...changesLines(a, o.maxFiles ?? 8));
  body.push(...childLines(card.children, o));
  return [headerLine(a, o.width), ...withLead(body, o.width)];
}
