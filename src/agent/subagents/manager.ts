/** The process-wide sub-agent manager: queueing, status, stopping and outcomes. */
import { ZERO_USAGE } from '../../providers/index.ts';
import { errorMessage, newId } from '../../util/index.ts';
import type { SubagentOutcome, SubagentStatus } from '../events.ts';
import { announceAgent, retireAgent, stopRequested } from './control-files.ts';

/** What `task_status`, `/agents` and `moat agents` show about one sub-agent. */
export interface AgentInfo {
  agentId: string;
  parentSessionId: string;
  parentToolUseId: string;
  /** Set once it runs. */
  sessionId?: string;
  description: string;
  agent?: string;
  background: boolean;
  status: SubagentStatus;
  turns: number;
  costUsd: number;
  /** Tokens of its conversation as of its last model request (input, cache and output): the size of its context. */
  tokens?: number;
  queuedAt: number;
  startedAt?: number;
  finishedAt?: number;
  /** One line: the tool it is calling, "thinking", "writing". */
  lastActivity: string;
  lastActivityAt: number;
  cwd?: string;
  worktree?: { path: string; branch: string };
}

export type { SubagentOutcome } from '../events.ts';

export interface LaunchSpec {
  agentId: string;
  parentSessionId: string;
  parentToolUseId: string;
  description: string;
  agent?: string;
  background: boolean;
  /** A foreground agent stops with its parent's run. */
  parentSignal?: AbortSignal;
  /**
   * Run at once in the caller's slot: a foreground agent of a sub-agent. Its
   * parent holds a slot while it waits, so queueing it could deadlock.
   */
  inheritSlot?: boolean;
  run(signal: AbortSignal, report: (patch: Partial<AgentInfo>) => void): Promise<SubagentOutcome>;
}

export interface SubagentManagerOptions {
  /** Sub-agents running at once; more wait in a queue. Default 4. */
  maxConcurrent?: number;
  /** How deep sub-agents may nest (a top-level session is depth 0). Default 2. */
  maxDepth?: number;
  /** Folder for cross-process stop requests (`moat agents stop`); none disables them. */
  controlDir?: string;
  /** How often stop requests are looked for. */
  pollMs?: number;
}

interface Entry {
  info: AgentInfo;
  spec: LaunchSpec;
  controller: AbortController;
  done: Promise<SubagentOutcome>;
  settle(o: SubagentOutcome): void;
  holdsSlot: boolean;
}

export const DEFAULT_MAX_CONCURRENT_AGENTS = 4;
export const DEFAULT_MAX_AGENT_DEPTH = 2;

/** A short agent id (8 hex digits): readable in branch names, unlikely to clash across processes. */
export function newAgentId(): string {
  return newId().replace(/-/g, '').slice(0, 8);
}

export function stoppedOutcome(reason: string): SubagentOutcome {
  return { status: 'stopped', stopReason: 'aborted', result: '', turns: 0, usage: ZERO_USAGE, costUsd: 0, durationMs: 0, error: reason, notes: [] };
}

/**
 * Every sub-agent of one moat process, whatever its depth: the concurrency
 * queue, status for the UI and the model, stopping (one, or all on exit).
 * It knows nothing of sessions: `LaunchSpec.run` does the work.
 */
export class SubagentManager {
  readonly maxConcurrent: number;
  readonly maxDepth: number;
  private readonly controlDir: string | undefined;
  private readonly pollMs: number;
  private readonly entries = new Map<string, Entry>();
  private readonly waiting: Entry[] = [];
  private readonly listeners = new Set<(info: AgentInfo) => void>();
  private active = 0;
  private closed = false;
  private poller: ReturnType<typeof setInterval> | undefined;

  constructor(opts: SubagentManagerOptions = {}) {
    this.maxConcurrent = Math.max(1, opts.maxConcurrent ?? DEFAULT_MAX_CONCURRENT_AGENTS);
    this.maxDepth = Math.max(0, opts.maxDepth ?? DEFAULT_MAX_AGENT_DEPTH);
    this.controlDir = opts.controlDir;
    this.pollMs = opts.pollMs ?? 250;
  }

  /** A short id, unique in this process and unlikely to clash with other processes' worktrees. */
  newAgentId(): string {
    for (;;) {
      const id = newAgentId();
      if (!this.entries.has(id)) return id;
    }
  }

  launch(spec: LaunchSpec): { info: AgentInfo; done: Promise<SubagentOutcome> } {
    let settle!: (o: SubagentOutcome) => void;
    const done = new Promise<SubagentOutcome>((resolve) => {
      settle = resolve;
    });
    const now = Date.now();
    const entry: Entry = {
      info: {
        agentId: spec.agentId,
        parentSessionId: spec.parentSessionId,
        parentToolUseId: spec.parentToolUseId,
        description: spec.description,
        ...(spec.agent === undefined ? {} : { agent: spec.agent }),
        background: spec.background,
        status: 'queued',
        turns: 0,
        costUsd: 0,
        queuedAt: now,
        lastActivity: 'queued',
        lastActivityAt: now,
      },
      spec,
      controller: new AbortController(),
      done,
      settle,
      holdsSlot: false,
    };
    this.entries.set(spec.agentId, entry);
    // Listeners always see `queued` first, then `running` (at once, if a slot is free).
    this.changed(entry);
    spec.parentSignal?.addEventListener('abort', () => this.stop(spec.agentId), { once: true });
    if (this.closed || spec.parentSignal?.aborted) {
      this.finish(entry, stoppedOutcome(this.closed ? 'moat is shutting down' : 'stopped before it started'));
    } else if (spec.inheritSlot) {
      this.start(entry, false);
    } else {
      this.waiting.push(entry);
      this.pump();
    }
    return { info: { ...entry.info }, done };
  }

  get(agentId: string): AgentInfo | undefined {
    const e = this.entries.get(agentId);
    return e ? { ...e.info } : undefined;
  }

  /** Every agent (optionally only those one session started), oldest first. */
  list(parentSessionId?: string): AgentInfo[] {
    return [...this.entries.values()].filter((e) => parentSessionId === undefined || e.info.parentSessionId === parentSessionId).map((e) => ({ ...e.info }));
  }

  /** The outcome once the agent ends (immediately for a finished one). */
  outcome(agentId: string): Promise<SubagentOutcome> | undefined {
    return this.entries.get(agentId)?.done;
  }

  /** Stops a queued or running agent; false when there is none by that id or it already ended. */
  stop(agentId: string): boolean {
    const e = this.entries.get(agentId);
    if (!e || e.info.finishedAt !== undefined) return false;
    const queued = this.waiting.indexOf(e);
    if (queued !== -1) {
      this.waiting.splice(queued, 1);
      this.finish(e, stoppedOutcome('stopped before it started'));
      return true;
    }
    e.controller.abort();
    return true;
  }

  /** Stops everything and waits until every agent has wound down (worktrees committed or removed). */
  async shutdown(): Promise<void> {
    this.closed = true;
    for (const id of [...this.entries.keys()]) this.stop(id);
    await Promise.all([...this.entries.values()].map((e) => e.done));
    this.stopPolling();
  }

  /** Status changes (queued, started, each turn and tool call, finished). Returns the unsubscribe. */
  subscribe(listener: (info: AgentInfo) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private pump(): void {
    while (this.active < this.maxConcurrent && this.waiting.length > 0) this.start(this.waiting.shift()!, true);
  }

  private start(e: Entry, takesSlot: boolean): void {
    if (takesSlot) {
      this.active++;
      e.holdsSlot = true;
    }
    const now = Date.now();
    Object.assign(e.info, { status: 'running', startedAt: now, lastActivity: 'starting', lastActivityAt: now });
    if (this.controlDir !== undefined) {
      announceAgent(this.controlDir, {
        agentId: e.info.agentId,
        pid: process.pid,
        description: e.info.description,
        parentSessionId: e.info.parentSessionId,
        startedAt: now,
      });
      this.startPolling();
    }
    this.changed(e);
    const report = (patch: Partial<AgentInfo>) => {
      if (e.info.finishedAt !== undefined) return;
      Object.assign(e.info, patch, { lastActivityAt: Date.now() });
      this.changed(e);
    };
    const signal = e.spec.parentSignal ? AbortSignal.any([e.controller.signal, e.spec.parentSignal]) : e.controller.signal;
    const started = performance.now();
    e.spec
      .run(signal, report)
      .catch((err: unknown): SubagentOutcome => ({
        status: 'failed',
        stopReason: 'error',
        result: '',
        turns: e.info.turns,
        usage: ZERO_USAGE,
        costUsd: e.info.costUsd,
        durationMs: Math.round(performance.now() - started),
        error: errorMessage(err),
        notes: [],
      }))
      .then((o) => this.finish(e, o))
      .catch(() => {
        // finish only notifies listeners; a throwing listener must not leave the agent unsettled.
      });
  }

  private finish(e: Entry, o: SubagentOutcome): void {
    if (e.info.finishedAt !== undefined) return;
    const now = Date.now();
    Object.assign(e.info, { status: o.status, finishedAt: now, turns: o.turns, costUsd: o.costUsd, lastActivity: o.status, lastActivityAt: now });
    if (this.controlDir !== undefined) retireAgent(this.controlDir, e.info.agentId);
    if (e.holdsSlot) {
      e.holdsSlot = false;
      this.active--;
    }
    e.settle(o);
    this.pump();
    if (![...this.entries.values()].some((x) => x.info.status === 'running')) this.stopPolling();
    this.changed(e);
  }

  private changed(e: Entry): void {
    const snapshot = { ...e.info };
    for (const l of this.listeners) l(snapshot);
  }

  private startPolling(): void {
    if (this.poller !== undefined || this.controlDir === undefined) return;
    const dir = this.controlDir;
    this.poller = setInterval(() => {
      for (const e of this.entries.values()) {
        if (e.info.status === 'running' && stopRequested(dir, e.info.agentId)) this.stop(e.info.agentId);
      }
    }, this.pollMs);
    // Never the reason the process stays alive.
    this.poller.unref();
  }

  private stopPolling(): void {
    if (this.poller !== undefined) clearInterval(this.poller);
    this.poller = undefined;
  }
}
