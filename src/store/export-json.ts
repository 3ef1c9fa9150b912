/** The `moat sessions export --format json` document. */
import type { Message } from '../providers/index.ts';
import type { TodoItem } from '../tools/index.ts';
import type { Store } from './store.ts';
import type { SessionStatus, UsageTotals } from './types.ts';

/**
 * The `moat sessions export --format json` document. A public format:
 * bump `version` on any incompatible change. Timestamps are ISO 8601 (UTC).
 */
export interface SessionExport {
  format: 'moat-session';
  version: 1;
  session: {
    id: string;
    title: string | null;
    cwd: string;
    projectRoot: string;
    gitBranch: string | null;
    model: string;
    parentId: string | null;
    agentId: string | null;
    permissionMode: string;
    status: SessionStatus;
    todos: TodoItem[];
    createdAt: string;
    updatedAt: string;
    /** Ids of sub-agent sessions it spawned (export them separately). */
    children: string[];
  };
  messages: { seq: number; turn: number; createdAt: string; message: Message }[];
  toolCalls: {
    toolUseId: string;
    name: string;
    input: unknown;
    result: string;
    isError: boolean;
    durationMs: number;
    startedAt: string;
    finishedAt: string;
  }[];
  usage: {
    totals: UsageTotals;
    records: {
      turn: number;
      model: string;
      inputTokens: number;
      outputTokens: number;
      cacheCreationInputTokens: number;
      cacheReadInputTokens: number;
      costUsd: number;
      createdAt: string;
    }[];
  };
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** Everything stored about one session. A missing id is a `not_found` error. */
export function buildSessionExport(store: Store, id: string): SessionExport {
  const s = store.sessions.require(id);
  return {
    format: 'moat-session',
    version: 1,
    session: {
      id: s.id,
      title: s.title,
      cwd: s.cwd,
      projectRoot: s.projectRoot,
      gitBranch: s.gitBranch,
      model: s.model,
      parentId: s.parentId,
      agentId: s.agentId,
      permissionMode: s.permissionMode,
      status: s.status,
      todos: s.todos,
      createdAt: iso(s.createdAt),
      updatedAt: iso(s.updatedAt),
      children: store.sessions.children(id).map((c) => c.id),
    },
    messages: store.messages
      .list(id)
      .map((m) => ({ seq: m.seq, turn: m.turn, createdAt: iso(m.createdAt), message: m.message })),
    toolCalls: store.toolCalls.list(id).map((c) => ({
      toolUseId: c.toolUseId,
      name: c.name,
      input: c.input,
      result: c.result,
      isError: c.isError,
      durationMs: c.durationMs,
      startedAt: iso(c.startedAt),
      finishedAt: iso(c.finishedAt),
    })),
    usage: {
      totals: store.usage.totals(id),
      records: store.usage.list(id).map((u) => ({
        turn: u.turn,
        model: u.model,
        ...u.usage,
        costUsd: u.costUsd,
        createdAt: iso(u.createdAt),
      })),
    },
  };
}

/** `buildSessionExport` as pretty-printed JSON with a trailing newline, ready for stdout. */
export function exportSessionJson(store: Store, id: string): string {
  return `${JSON.stringify(buildSessionExport(store, id), null, 2)}\n`;
}
