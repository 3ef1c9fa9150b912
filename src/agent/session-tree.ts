/** A session's place in the tree of sessions: restoring one and the host its sub-agents use. */
import type { Message, Usage } from '../providers/index.ts';
import { addUsage } from '../providers/index.ts';
import type { Store } from '../store/index.ts';
import { ToolRegistry, type TodoItem } from '../tools/index.ts';
import { MoatError } from '../util/index.ts';
import { repairHistory } from './history.ts';
import type { AskPermission } from './permission-gate.ts';
import type { SubagentHost, SubagentSupport } from './subagents/index.ts';
import { taskResultTool, taskStatusTool, taskTool } from './subagents/index.ts';

/**
 * The parts of a session that concern its place in a tree of sessions and
 * over time: its task tools, and what a resumed session starts from
 * (totals include its sub-agents).
 */

/** A session's state when it is opened. */
export interface Restored {
  id: string;
  history: Message[];
  resumed: boolean;
  todos: TodoItem[];
  turnBase: number;
  usage: Usage;
  costUsd: number;
}

/** The host a session's task tools work through; undefined when it may not start sub-agents. */
export function subagentHost(
  support: SubagentSupport | undefined,
  depth: number,
  allowed: boolean,
  parts: Omit<SubagentHost, 'depth' | 'support'>,
): SubagentHost | undefined {
  if (!support || !allowed || depth >= support.manager.maxDepth) return undefined;
  return { ...parts, depth, support };
}

/**
 * A sub-agent's way to ask the user. Its `permission_request` reaches the
 * front end only inside its parent's running stream; a background agent of
 * an idle parent would wait for an answer to a question nobody saw, so it is
 * denied instead, with the reason. Wrapping at every level makes a
 * grandchild depend on the whole chain being reachable.
 */
export function askWhileRunning(ask: AskPermission | undefined, parentRunning: () => boolean): AskPermission | undefined {
  if (!ask) return undefined;
  return (request) =>
    parentRunning()
      ? ask(request)
      : Promise.resolve({ behavior: 'deny', message: 'Nobody could be asked: the session that started this sub-agent is not running. Do without this call.' });
}

/** Loads a session to resume: `latest` in cwd, or an id or unique prefix. Repairs a history cut short by a crash. */
export function restoreSession(store: Store, cwd: string, resume: string): Restored {
  const row = resume === 'latest' ? store.sessions.latestForCwd(cwd) : store.sessions.require(store.sessions.resolvePrefix(resume));
  if (!row) throw new MoatError('not_found', `no earlier session in ${cwd} to continue`);
  // After a compaction, the replayed history starts at the summary.
  const stored = store.messages.listFrom(row.id, row.historyStartSeq).map((m) => m.message);
  const { messages, repaired } = repairHistory(stored);
  if (repaired) {
    // Persist the synthetic results so the stored history is valid too.
    for (const m of messages.slice(stored.length)) store.messages.append(row.id, m, 0);
  }
  const totals = treeTotals(store, row.id);
  return { id: row.id, history: messages, resumed: true, todos: row.todos ?? [], turnBase: totals.turns, usage: totals.usage, costUsd: totals.costUsd };
}

/**
 * Takes a session's conversation back to just before its user message of
 * `turn`: the messages from there on move to a saved branch (a session of
 * its own, returned), and the history to replay is read again.
 */
export function rewindHistory(store: Store, sessionId: string, turn: number, cwd: string): { branch: string; history: Message[] } {
  const prompt = store.checkpoints.userPrompts(sessionId).find((p) => p.turn === turn);
  if (!prompt) throw new MoatError('not_found', `session ${sessionId} has no user message of turn ${turn}`);
  const branch = store.checkpoints.branchOff(sessionId, prompt.seq, turn);
  return { branch, history: restoreSession(store, cwd, sessionId).history };
}

/** The session's registry: the shared tools plus, when it may start sub-agents, its own task tools. */
export function sessionRegistry(base: ToolRegistry, host: SubagentHost | undefined): ToolRegistry {
  if (!host) return base;
  // extend, not a copy: the session keeps seeing the shared registry's drop-in WASM tools as they change.
  return base.extend([taskTool(host), taskStatusTool(host), taskResultTool(host)]);
}

/** Usage of a session and all its sub-agent sessions, for a resumed session's running totals. */
export function treeTotals(store: Store, sessionId: string): { usage: Usage; costUsd: number; turns: number } {
  const own = store.usage.totals(sessionId);
  let usage = own.usage;
  let costUsd = own.costUsd;
  for (const child of store.sessions.children(sessionId)) {
    const t = treeTotals(store, child.id);
    usage = addUsage(usage, t.usage);
    costUsd += t.costUsd;
  }
  // Turns stay the session's own: they number its messages.
  return { usage, costUsd, turns: own.turns };
}
