/**
 * Shapes the TUI draws. Payload types are taken from the session protocol's
 * event union itself: the TUI sees what the protocol sends, nothing of the agent's inside.
 */
import type { SessionEvent } from '../../protocol/index.ts';
import type { ShellResult, TuiInfo } from '../views.ts';
import type { AgentCard } from './subagents.ts';

export type ToolDisplay = Extract<SessionEvent, { type: 'tool_update' }>['display'];
export type CallIntent = Extract<SessionEvent, { type: 'permission_request' }>['intent'];
export type TodoItem = Extract<SessionEvent, { type: 'todos' }>['items'][number];
export type PermissionRequest = Extract<SessionEvent, { type: 'permission_request' }> & {
  /** Which sub-agent asks ("Edit a (explore)"); undefined for the main agent. */
  agent?: string;
};

export type ToolStatus = 'streaming' | 'pending' | 'waiting' | 'running' | 'done' | 'error' | 'aborted' | 'denied';

/** One tool call as the UI tracks it, from the first streamed byte of its input to its result. */
export interface ToolCallView {
  id: string;
  name: string;
  /** The input JSON streamed so far. */
  json: string;
  /** The parsed input, once the call is complete. */
  input?: unknown;
  status: ToolStatus;
  /** Date.now() when it started running. */
  startedAt?: number;
  durationMs?: number;
  display?: ToolDisplay;
  /** The result as the model sees it (errors are shown from here). */
  content?: string;
}

/** What goes into `<Static>`: finished, immutable, printed once into native scrollback. */
export type StaticItem =
  | { kind: 'banner'; id: number; info: TuiInfo }
  | { kind: 'user'; id: number; text: string }
  /** One or more finished markdown blocks of an assistant message; `first` gets the message bullet. */
  | { kind: 'markdown'; id: number; text: string; first: boolean }
  /**
   * Lines of a code block streamed in chunks; `joined` chunks continue the one before without a gap.
   * `context`: the block's lines just before these, highlighted with them but not printed, so a
   * comment or string that spans chunks keeps its colour.
   */
  | { kind: 'code'; id: number; lang: string; text: string; first: boolean; joined: boolean; context?: string }
  | { kind: 'thinking'; id: number; text: string; seconds: number }
  /** `agent`: a `task` call's sub-agent as it was when the card was committed. */
  | { kind: 'tool'; id: number; call: ToolCallView; expanded?: boolean; agent?: AgentCard }
  /** A sub-agent that ended after its `task` card went to scrollback (background agents). */
  | { kind: 'subagent'; id: number; card: AgentCard }
  | { kind: 'notice'; id: number; level: 'info' | 'warning' | 'error'; text: string }
  | { kind: 'interrupted'; id: number }
  | { kind: 'shell'; id: number; result: ShellResult }
  | { kind: 'todos'; id: number; items: TodoItem[] }
  /** Pre-rendered lines: slash-command output, expanded views. */
  | { kind: 'lines'; id: number; lines: string[] };

/** Omit over a union, per member. */
export type StaticItemInput = StaticItem extends infer T ? (T extends StaticItem ? Omit<T, 'id'> : never) : never;
