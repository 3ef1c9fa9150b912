/**
 * The events a session sends out, as the protocol defines them: the contract
 * front ends (TUI, -p, stream-json, ACP, moat as an MCP server) are written
 * against. They are not the agent's internal event type: `toSessionEvent` is
 * the one place an agent event becomes a protocol event, so a change inside
 * the agent either fits this contract or fails to compile there.
 */
import type { SandboxGrant } from '../contracts/index.ts';
import type {
  AgentEvent,
  AssistantMessage,
  ModelStreamEvent,
  ModelUsage,
  PermissionDecision,
  RunStopReason,
  SubagentOutcome,
  ToolResultPart,
  Usage,
  UserMessage,
} from '../agent/index.ts';
import { assertNever } from '../util/index.ts';

// Payload shapes the agent's tools define (what a tool shows, what a call would do, the todo list): data, not events.
type ToolDisplay = Extract<AgentEvent, { type: 'tool_update' }>['display'];
type CallIntent = Extract<AgentEvent, { type: 'permission_request' }>['intent'];
type TodoItem = Extract<AgentEvent, { type: 'todos' }>['items'][number];
/** What failed in a model request (the provider's error kind). */
type ErrorKind = Extract<AgentEvent, { type: 'retry' }>['kind'];

/** What a `shell` operation (`!cmd`) ran: its output goes to the model as context with the next prompt. */
export interface ShellResult {
  command: string;
  /** stdout and stderr together, the tail kept when it is long. */
  output: string;
  /** null: killed (interrupted, timed out) or refused by the permission check. */
  exitCode: number | null;
  durationMs: number;
}

/** A sub-agent's life as the parent's stream reports it; its own events come wrapped in `subagent_event`. */
export type SubagentSessionEvent =
  | {
      type: 'subagent_started';
      agentId: string;
      sessionId: string;
      parentSessionId: string;
      parentToolUseId: string;
      description: string;
      agent?: string;
      background: boolean;
      model: string;
      cwd: string;
      tools: string[];
      isolation: 'worktree' | 'none';
      worktree?: { path: string; branch: string };
    }
  | { type: 'subagent_event'; agentId: string; parentToolUseId: string; event: SessionEvent }
  | ({ type: 'subagent_finished'; agentId: string; parentToolUseId: string } & Omit<SubagentOutcome, 'notes'>);

/**
 * Everything a front end learns about a session. A permission prompt is one
 * `permission_request` event, answered by one `permission_answer` operation;
 * calls that rules or the mode decide never show up as a question. Each run
 * ends with exactly one `run_finished`. Text, thinking and tool input stream
 * once each, as their delta events; `model_stream` is the block structure
 * around them (for front ends that mirror the wire).
 */
export type SessionEvent =
  | SubagentSessionEvent
  | { type: 'session_started'; sessionId: string; cwd: string; model: string; tools: string[]; permissionMode: string; resumed: boolean }
  | { type: 'history'; messages: (UserMessage | AssistantMessage)[] }
  | { type: 'user_message'; message: UserMessage; checkpointId?: string }
  | { type: 'turn_started'; turn: number }
  | { type: 'text_delta'; turn: number; index: number; text: string }
  | { type: 'thinking_delta'; turn: number; index: number; thinking: string }
  | { type: 'tool_call_started'; toolUseId: string; name: string; index: number }
  | { type: 'tool_call_delta'; toolUseId: string; partialJson: string; index: number }
  | { type: 'tool_call_ready'; toolUseId: string; name: string; input: unknown }
  | { type: 'retry'; turn: number; attempt: number; maxRetries: number; delayMs: number; message: string; kind: ErrorKind; status?: number }
  | { type: 'model_stream'; turn: number; event: ModelStreamEvent }
  | { type: 'assistant_message'; turn: number; message: AssistantMessage; usage: Usage; model?: string }
  | {
      type: 'permission_request';
      requestId: string;
      toolUseId: string;
      toolName: string;
      input?: unknown;
      rule?: string;
      intent: CallIntent;
      grant?: { level: SandboxGrant; text: string };
    }
  | { type: 'permission_denied'; toolUseId: string; toolName: string; input: unknown; message: string }
  | { type: 'permission_resolved'; requestId: string; decision: PermissionDecision }
  | { type: 'tool_started'; toolUseId: string; name: string }
  | { type: 'tool_update'; toolUseId: string; display: ToolDisplay }
  | { type: 'tool_finished'; toolUseId: string; name: string; content: string; isError: boolean; display?: ToolDisplay; durationMs: number }
  | { type: 'tool_results'; turn: number; results: ToolResultPart[] }
  | { type: 'todos'; items: TodoItem[] }
  | { type: 'usage'; turn: number; turnUsage: Usage; sessionUsage: Usage; turnCostUsd: number; sessionCostUsd: number; model?: string }
  | { type: 'model_fallback'; turn: number; from: string; to: string; reason: string; trigger: ErrorKind }
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; message: string; sandboxRefusal?: true }
  | { type: 'compacted'; trigger: 'manual' | 'auto'; preTokens: number; postTokens: number; durationMs: number }
  | { type: 'hook_output'; event: string; command: string; output: string }
  | { type: 'turn_aborted'; turn: number }
  /** The one end of a `shell` operation's events; `error`: it could not run at all (not a refusal, which is its output). */
  | ({ type: 'shell_finished'; error?: string } & ShellResult)
  /**
   * The one end of an `expand_skill` operation's events: the prompt to send (absent: no skill has that name), the
   * model the skill asks for, or `error` (a missing argument: the usage line; a model no provider takes).
   */
  | { type: 'skill_expanded'; name: string; prompt?: string; model?: string; error?: string }
  | {
      type: 'run_finished';
      stopReason: RunStopReason;
      result: string;
      turns: number;
      usage: Usage;
      costUsd: number;
      durationMs: number;
      apiDurationMs?: number;
      error?: string;
      requestFailed?: boolean;
      apiErrorStatus?: number;
      modelUsage?: Record<string, ModelUsage>;
      structuredOutput?: unknown;
    };

export type SessionEventType = SessionEvent['type'];
export type RunFinishedEvent = Extract<SessionEvent, { type: 'run_finished' }>;
export type PermissionRequestEvent = Extract<SessionEvent, { type: 'permission_request' }>;
export type ShellFinishedEvent = Extract<SessionEvent, { type: 'shell_finished' }>;
export type SkillExpandedEvent = Extract<SessionEvent, { type: 'skill_expanded' }>;

/**
 * The one conversion from the agent's events to the protocol's. Every agent
 * event type is listed: a new one fails to compile here until the protocol
 * says what front ends see of it.
 */
export function toSessionEvent(e: AgentEvent): SessionEvent {
  switch (e.type) {
    case 'subagent_event':
      return { type: 'subagent_event', agentId: e.agentId, parentToolUseId: e.parentToolUseId, event: toSessionEvent(e.event) };
    case 'subagent_started':
    case 'subagent_finished':
    case 'session_started':
    case 'history':
    case 'user_message':
    case 'turn_started':
    case 'text_delta':
    case 'thinking_delta':
    case 'tool_call_started':
    case 'tool_call_delta':
    case 'tool_call_ready':
    case 'retry':
    case 'model_stream':
    case 'assistant_message':
    case 'permission_request':
    case 'permission_denied':
    case 'permission_resolved':
    case 'tool_started':
    case 'tool_update':
    case 'tool_finished':
    case 'tool_results':
    case 'todos':
    case 'usage':
    case 'model_fallback':
    case 'notice':
    case 'compacted':
    case 'hook_output':
    case 'turn_aborted':
    case 'run_finished':
      // Same shape on both sides today; the compiler checks it case by case.
      return e;
    default:
      return assertNever(e, 'agent event');
  }
}
