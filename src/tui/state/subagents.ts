/**
 * Sub-agents as the TUI tracks them, one view per agent of this process.
 *
 * Two sources feed it. The run stream carries `subagent_*` events, in order
 * with the parent's own events: a foreground agent's end is known before its
 * `task` card is committed. The queries' updates (SubagentManager) carry
 * status, turns, tokens and the current tool whether or not the parent is
 * running: background agents keep working after the parent's run ends, and
 * their events then go nowhere. Both are applied idempotently; an ended agent
 * never goes back to running.
 *
 * Updates are published at most once per flush (like streamed text): a busy
 * agent reports every tool call, and each publish redraws the live area.
 */
import type { AgentInfo, FileChange, SubagentOutcome } from '../../agent/index.ts';
import type { SessionEvent } from '../../protocol/index.ts';
import type { SubagentUpdate } from '../views.ts';
import { createStore, type Store } from './store.ts';
import type { StaticItemInput } from './types.ts';

export type AgentStatus = AgentInfo['status'];

export interface SubagentView {
  agentId: string;
  /** The `task` call that started it. */
  parentToolUseId: string;
  parentSessionId: string;
  sessionId?: string;
  /** The sub-agent that started this one (nested agents). */
  parentAgentId?: string;
  description: string;
  /** The named definition it runs. */
  agent?: string;
  background: boolean;
  model?: string;
  status: AgentStatus;
  /** What it does now, as the manager words it: `read {"file_path":…}`, `thinking`, `queued`. */
  activity: string;
  /** The last tool call it made (the manager's words), shown while it thinks between calls. */
  lastTool?: string;
  turns: number;
  tokens: number;
  costUsd: number;
  startedAt?: number;
  durationMs?: number;
  worktree?: { path: string; branch: string };
  result?: string;
  error?: string;
  /** Its committed work, for worktree agents that changed files. */
  changes?: { branch: string; files: FileChange[] };
}

/** A sub-agent frozen for scrollback, with its nested agents (depth 1 = its own children). */
export interface AgentCard {
  agent: SubagentView;
  children: { depth: number; agent: SubagentView }[];
}

type SubagentEvent = Extract<SessionEvent, { type: 'subagent_started' | 'subagent_finished' }>;

const ENDED = new Set<AgentStatus>(['done', 'failed', 'stopped']);
export const isEnded = (a: Pick<SubagentView, 'status'>): boolean => ENDED.has(a.status);

export interface BoardOptions {
  flushMs: number;
  now: () => number;
  /** Into `<Static>`: the final card of an agent no live `task` card shows. */
  commit(item: StaticItemInput): void;
  /** Whether this `task` call is still in the live area (its card will carry the result). */
  isLive(toolUseId: string): boolean;
}

export class SubagentBoard {
  readonly agents: Store<readonly SubagentView[]> = createStore<readonly SubagentView[]>([]);
  private readonly views = new Map<string, SubagentView>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly opts: BoardOptions;

  constructor(opts: BoardOptions) {
    this.opts = opts;
  }

  /**
   * A wrapped event from the run stream: the innermost event and the agent
   * whose stream carried it. A nested agent's start or end is applied here,
   * with the carrying agent as its parent.
   */
  unwrap(e: Extract<SessionEvent, { type: 'subagent_event' }>): { agentId: string; event: SessionEvent } {
    let agentId = e.agentId;
    let event = e.event;
    while (event.type === 'subagent_event') {
      agentId = event.agentId;
      event = event.event;
    }
    if (event.type === 'subagent_started' || event.type === 'subagent_finished') this.applyEvent(event, agentId);
    return { agentId, event };
  }

  applyEvent(e: SubagentEvent, parentAgentId?: string): void {
    if (e.type === 'subagent_started') {
      this.upsert(e.agentId, (v) => ({
        ...v,
        parentToolUseId: e.parentToolUseId,
        parentSessionId: e.parentSessionId,
        sessionId: e.sessionId,
        description: e.description,
        ...(e.agent === undefined ? {} : { agent: e.agent }),
        ...(parentAgentId === undefined ? {} : { parentAgentId }),
        background: e.background,
        model: e.model,
        status: isEnded(v) ? v.status : 'running',
        startedAt: v.startedAt ?? this.opts.now(),
        ...(e.worktree ? { worktree: e.worktree } : {}),
      }));
      this.flush();
      return;
    }
    const { type: _t, agentId, parentToolUseId: _p, ...outcome } = e;
    this.finish(agentId, { ...outcome, notes: [] });
  }

  /** From the queries (SubagentManager): status at any time, and the outcome once it ended. */
  applyUpdate(u: SubagentUpdate): void {
    const i = u.info;
    this.upsert(i.agentId, (v) => ({
      ...v,
      parentToolUseId: i.parentToolUseId,
      parentSessionId: i.parentSessionId,
      ...(i.sessionId === undefined ? {} : { sessionId: i.sessionId }),
      description: i.description,
      ...(i.agent === undefined ? {} : { agent: i.agent }),
      background: i.background,
      // The outcome (below) decides how it ended; until then the manager's status.
      status: isEnded(v) ? v.status : ENDED.has(i.status) ? 'running' : i.status,
      activity: i.lastActivity,
      ...(/^[A-Za-z][\w-]* \{/.test(i.lastActivity) ? { lastTool: i.lastActivity } : {}),
      turns: Math.max(v.turns, i.turns),
      tokens: i.tokens ?? v.tokens,
      costUsd: Math.max(v.costUsd, i.costUsd),
      ...(i.startedAt === undefined ? {} : { startedAt: v.startedAt ?? i.startedAt }),
      ...(i.worktree ? { worktree: i.worktree } : {}),
    }));
    if (u.outcome) this.finish(i.agentId, u.outcome);
    else this.schedule();
  }

  get(agentId: string): SubagentView | undefined {
    return this.views.get(agentId);
  }

  /** The agent a `task` call started. */
  forTool(toolUseId: string): SubagentView | undefined {
    for (const v of this.views.values()) if (v.parentToolUseId === toolUseId) return v;
    return undefined;
  }

  /** Its nested agents, depth first, oldest first at each level. */
  descendants(agentId: string, depth = 1): { depth: number; agent: SubagentView }[] {
    const out: { depth: number; agent: SubagentView }[] = [];
    for (const v of this.views.values()) {
      if (this.parentOf(v) !== agentId) continue;
      out.push({ depth, agent: v }, ...this.descendants(v.agentId, depth + 1));
    }
    return out;
  }

  card(agent: SubagentView): AgentCard {
    return { agent, children: this.descendants(agent.agentId) };
  }

  /**
   * Agents going on that no live `task` card shows: background agents after
   * their card went to scrollback, and nested agents whose parent ended first.
   */
  floating(): SubagentView[] {
    return [...this.views.values()].filter((v) => !isEnded(v) && this.standsAlone(v));
  }

  /** "Edit a (explore)": how the permission dialog and notices name an agent. */
  label(agentId: string): string {
    const v = this.views.get(agentId);
    if (!v) return `sub-agent ${agentId}`;
    return `${v.description}${v.agent ? ` (${v.agent})` : ''}`;
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.agents.set([...this.views.values()]);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private parentOf(v: SubagentView): string | undefined {
    if (v.parentAgentId !== undefined) return v.parentAgentId;
    // Known from the manager alone (the parent's run had ended): its parent session is another agent's.
    for (const p of this.views.values()) if (p.sessionId !== undefined && p.sessionId === v.parentSessionId) return p.agentId;
    return undefined;
  }

  private standsAlone(v: SubagentView): boolean {
    const parent = this.parentOf(v);
    const p = parent === undefined ? undefined : this.views.get(parent);
    if (p && !isEnded(p)) return false;
    return !this.opts.isLive(v.parentToolUseId);
  }

  private finish(agentId: string, o: SubagentOutcome): void {
    const before = this.views.get(agentId);
    if (before && isEnded(before)) return;
    const v = this.upsert(agentId, (x) => ({
      ...x,
      status: o.status,
      turns: Math.max(x.turns, o.turns),
      costUsd: Math.max(x.costUsd, o.costUsd),
      durationMs: o.durationMs,
      result: o.result,
      activity: o.status,
      ...(o.error === undefined ? {} : { error: o.error }),
      ...(o.changes ? { changes: { branch: o.changes.branch, files: o.changes.files } } : {}),
    }));
    this.flush();
    // A live `task` card (foreground) carries the result when it is committed; a nested agent shows in its parent's card.
    if (this.standsAlone(v)) this.opts.commit({ kind: 'subagent', card: this.card(v) });
  }

  private upsert(agentId: string, fn: (v: SubagentView) => SubagentView): SubagentView {
    const current = this.views.get(agentId) ?? {
      agentId,
      parentToolUseId: '',
      parentSessionId: '',
      description: agentId,
      background: false,
      status: 'queued',
      activity: 'queued',
      turns: 0,
      tokens: 0,
      costUsd: 0,
    };
    const next = fn(current);
    this.views.set(agentId, next);
    return next;
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => this.flush(), this.opts.flushMs);
  }
}
