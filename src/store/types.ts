/** Row shapes the store hands out. */
import type { Message, Usage } from '../providers/index.ts';
import type { TodoItem } from '../tools/index.ts';

/**
 * Row shapes the store hands out. Timestamps are Unix epoch milliseconds.
 * JSON columns come back parsed.
 */

/** `active` while a process works on the session; the others say how its last run ended. */
export type SessionStatus = 'active' | 'completed' | 'aborted' | 'error';

export interface SessionRow {
  id: string;
  cwd: string;
  projectRoot: string;
  gitBranch: string | null;
  model: string;
  title: string | null;
  /** The session that spawned this one (sub-agents); null for top-level sessions. */
  parentId: string | null;
  agentId: string | null;
  createdAt: number;
  updatedAt: number;
  permissionMode: string;
  todos: TodoItem[];
  status: SessionStatus;
  /** The first message the agent replays on resume (0: all); set by context compaction. */
  historyStartSeq: number;
  /** A saved branch (conversation rewind): the session it was rewound away from, and from which message. */
  branchOf: string | null;
  branchAtSeq: number | null;
}

export interface NewSession {
  id?: string;
  cwd: string;
  projectRoot: string;
  gitBranch?: string | null;
  model: string;
  title?: string | null;
  parentId?: string | null;
  agentId?: string | null;
  permissionMode: string;
}

/** What `sessions list` shows: the row plus enough to recognise the session. */
export interface SessionListItem extends SessionRow {
  messageCount: number;
  /** The first user prompt's text (one line, shortened), for sessions without a title. */
  firstPrompt: string | null;
}

export interface ListSessionsOptions {
  /** Only sessions started in this directory. Ignored when `all` is set. */
  cwd?: string;
  all?: boolean;
  /** Include sub-agent sessions (those with a parent). Default false. */
  includeChildren?: boolean;
  /** Default 50. */
  limit?: number;
}

export interface StoredMessage {
  sessionId: string;
  seq: number;
  turn: number;
  createdAt: number;
  message: Message;
}

export interface NewToolCall {
  sessionId: string;
  toolUseId: string;
  name: string;
  input: unknown;
  result: string;
  isError: boolean;
  durationMs: number;
  /** Default: finishedAt - durationMs. */
  startedAt?: number;
  /** Default: now. */
  finishedAt?: number;
}

export interface ToolCallRow {
  sessionId: string;
  toolUseId: string;
  name: string;
  input: unknown;
  result: string;
  isError: boolean;
  durationMs: number;
  startedAt: number;
  finishedAt: number;
}

export interface NewUsage {
  sessionId: string;
  turn: number;
  model: string;
  usage: Usage;
  costUsd: number;
}

export interface UsageRow extends NewUsage {
  createdAt: number;
}

export interface UsageTotals {
  usage: Usage;
  costUsd: number;
  /** Distinct turns with recorded usage. */
  turns: number;
}
