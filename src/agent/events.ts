/** The agent's typed event stream: what a run tells its front end. */
import type { SandboxGrant } from '../contracts/index.ts';
import type { AssistantMessage, ProviderErrorKind, ProviderEvent, ToolResultPart, Usage, UserMessage } from '../providers/index.ts';
import type { CallIntent, ToolDisplay, TodoItem } from '../tools/index.ts';
import type { WorktreeChanges } from './subagents/worktree.ts';

/** Why a run ended. */
export type RunStopReason =
  | 'end_turn' // the model finished
  | 'max_turns' // --max-turns reached
  | 'budget' // --max-budget-usd reached
  | 'aborted' // Esc / Ctrl-C / SIGTERM
  | 'error' // API or infrastructure failure
  | 'no_structured_output'; // --json-schema: no valid StructuredOutput call after the reminders

export type PermissionDecision =
  | {
      behavior: 'allow';
      /** "Allow always": where the rule is kept ('session': for this session only, nothing written). */
      remember?: 'local' | 'project' | 'user' | 'session';
      /** With `remember`: these rules instead of the one moat derives from the call (an SDK's updatedPermissions). */
      rules?: string[];
      /** Run the call with this input instead (an SDK's updatedInput); it is validated like the model's. */
      updatedInput?: unknown;
    }
  | { behavior: 'deny'; message?: string };

/**
 * The model stream's events that have no agent event of their own: the block
 * structure (message, block starts and ends, signatures, usage, stop). Text,
 * thinking and tool-input deltas travel once, as `text_delta`,
 * `thinking_delta`, `tool_call_started` and `tool_call_delta` (with the
 * block's index), never a second time inside `model_stream`.
 */
export type ModelStreamEvent = Exclude<ProviderEvent, { type: 'error' | 'text_delta' | 'thinking_delta' | 'tool_use_start' | 'tool_use_delta' }>;

/**
 * The agent's typed event stream. `print/` and `tui/` consume it; neither
 * ever talks to a provider, a tool or the store directly. Sub-agent events
 * carry `agentId` (and the parent's id) when they are forwarded upwards.
 */
export type AgentEvent =
  | SubagentEvent
  | {
      type: 'session_started';
      sessionId: string;
      cwd: string;
      model: string;
      tools: string[];
      permissionMode: string;
      resumed: boolean;
    }
  /** The full history of a resumed session, for the UI to show. */
  | { type: 'history'; messages: (UserMessage | AssistantMessage)[] }
  /** `checkpointId` names the point just before this message, for a rewind (`rewindFiles`, `moat rewind`). */
  | { type: 'user_message'; message: UserMessage; checkpointId?: string }
  | { type: 'turn_started'; turn: number }
  /** `index`: the content block it belongs to (the model stream's index, for front ends that mirror the wire). */
  | { type: 'text_delta'; turn: number; index: number; text: string }
  | { type: 'thinking_delta'; turn: number; index: number; thinking: string }
  /** The model started a tool call; the input streams next. */
  | { type: 'tool_call_started'; toolUseId: string; name: string; index: number }
  /** Raw JSON fragment of the input as it streams (for live display of partial input). */
  | { type: 'tool_call_delta'; toolUseId: string; partialJson: string; index: number }
  /** The streamed input parsed; the call is ready to be checked and run. */
  | { type: 'tool_call_ready'; toolUseId: string; name: string; input: unknown }
  /**
   * The provider failed mid-stream and the request is being retried: discard
   * everything streamed since the last `turn_started` (it will be sent again).
   */
  /** `status`: the HTTP status of the failed attempt, when it had one; `kind`: what failed (the provider's error kind). */
  | { type: 'retry'; turn: number; attempt: number; maxRetries: number; delayMs: number; message: string; kind: ProviderErrorKind; status?: number }
  /**
   * The model stream's structure, in wire order, for front ends that mirror
   * it (stream-json with --include-partial-messages): together with the delta
   * events above it is every event of the stream, each sent once. Discard
   * what came since the last `message_start` on `retry`.
   */
  | { type: 'model_stream'; turn: number; event: ModelStreamEvent }
  /** `model`: the model that wrote it, when not the session's (after a fallback). */
  | { type: 'assistant_message'; turn: number; message: AssistantMessage; usage: Usage; model?: string }
  /**
   * `input`: the call's validated input (what an SDK's can_use_tool shows);
   * `rule`: the rule an "always" answer would save (offered as a suggestion).
   */
  | {
      type: 'permission_request';
      requestId: string;
      toolUseId: string;
      toolName: string;
      input?: unknown;
      rule?: string;
      intent: CallIntent;
      /** A command under the OS sandbox: the grants approving it gives, and what they allow in words (describeGrant). */
      grant?: { level: SandboxGrant; text: string };
    }
  /** A call the rules, the mode or the person refused; its result tells the model why. */
  | { type: 'permission_denied'; toolUseId: string; toolName: string; input: unknown; message: string }
  | { type: 'permission_resolved'; requestId: string; decision: PermissionDecision }
  | { type: 'tool_started'; toolUseId: string; name: string }
  | { type: 'tool_update'; toolUseId: string; display: ToolDisplay }
  | {
      type: 'tool_finished';
      toolUseId: string;
      name: string;
      content: string;
      isError: boolean;
      display?: ToolDisplay;
      durationMs: number;
    }
  /** All results of one assistant message's tool calls, as sent back to the model. */
  | { type: 'tool_results'; turn: number; results: ToolResultPart[] }
  | { type: 'todos'; items: TodoItem[] }
  | {
      type: 'usage';
      turn: number;
      turnUsage: Usage;
      sessionUsage: Usage;
      turnCostUsd: number;
      sessionCostUsd: number;
      /** The model this turn's usage was spent on (`provider/model` as chosen); differs from the session's after a fallback. */
      model?: string;
    }
  /**
   * The model failed after its retries (overloaded, 5xx, rate limited) and the
   * turn is being sent to the next model of the fallback chain. As with
   * `retry`, discard what streamed since the last `turn_started`.
   */
  | { type: 'model_fallback'; turn: number; from: string; to: string; reason: string; trigger: ProviderErrorKind }
  /** A user-visible problem that did not end the run (e.g. a retry in progress, a skipped config entry). */
  /** `sandboxRefusal`: the OS sandbox refused a hook something; said on stderr even in quiet output. */
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; message: string; sandboxRefusal?: true }
  /**
   * The history was replaced by a summary (`manual`: /compact; `auto`: the context was nearly full, or the API
   * refused it as too long). `preTokens`: what the history took (the summary request's input); `postTokens`:
   * what the summary takes. The context in use is now `postTokens`, not the last usage's input.
   */
  | { type: 'compacted'; trigger: 'manual' | 'auto'; preTokens: number; postTokens: number; durationMs: number }
  /**
   * A command hook's stdout, for verbose output (Claude Code shows it in its
   * transcript view). Hooks that answer `suppressOutput: true` send none.
   */
  | { type: 'hook_output'; event: string; command: string; output: string }
  | { type: 'turn_aborted'; turn: number }
  | {
      type: 'run_finished';
      stopReason: RunStopReason;
      /** The final assistant text of the run. */
      result: string;
      turns: number;
      usage: Usage;
      costUsd: number;
      durationMs: number;
      /** The part of durationMs spent waiting on model requests. */
      apiDurationMs?: number;
      /** Set when stopReason is 'error'. */
      error?: string;
      /** The run ended because a model request failed for good (after its retries and any fallback). */
      requestFailed?: boolean;
      /** That request's HTTP status, when it had one. */
      apiErrorStatus?: number;
      /** What this run spent per model, when it used any (more than one after a fallback). */
      modelUsage?: Record<string, ModelUsage>;
      /** With an output schema: the answer given through StructuredOutput, valid against it. */
      structuredOutput?: unknown;
    };

/** Usage and cost on one model. */
export interface ModelUsage {
  usage: Usage;
  costUsd: number;
  /** The model's context window and output cap, as the catalogue (or the user's config) gives them. */
  contextWindow: number;
  maxOutputTokens: number;
}

export type AgentEventType = AgentEvent['type'];

/** Where a sub-agent is in its life; `task_status` reports it. */
export type SubagentStatus = 'queued' | 'running' | 'done' | 'failed' | 'stopped';

/**
 * Sub-agent events, emitted into the parent's stream while the parent runs.
 * A sub-agent's own events arrive wrapped in `subagent_event` (nested agents
 * wrap again, innermost last), between one `subagent_started` and one
 * `subagent_finished` with the same `agentId`. A wrapped `permission_request`
 * is answered like the parent's own (same front end, its own requestId).
 * While the parent is not running, its background agents' events go nowhere
 * (their status is in SubagentManager) and their permission requests are denied.
 */
export type SubagentEvent =
  | {
      type: 'subagent_started';
      agentId: string;
      /** The sub-agent's own session (its row has parentId = parentSessionId). */
      sessionId: string;
      parentSessionId: string;
      /** The `task` call that started it. */
      parentToolUseId: string;
      description: string;
      /** The named definition it runs, if any. */
      agent?: string;
      background: boolean;
      model: string;
      cwd: string;
      tools: string[];
      isolation: 'worktree' | 'none';
      worktree?: { path: string; branch: string };
    }
  | { type: 'subagent_event'; agentId: string; parentToolUseId: string; event: AgentEvent }
  | ({ type: 'subagent_finished'; agentId: string; parentToolUseId: string } & Omit<SubagentOutcome, 'notes'>);

/** How a sub-agent ended: what `task`/`task_result` return and `subagent_finished` carries. */
export interface SubagentOutcome {
  status: Exclude<SubagentStatus, 'queued' | 'running'>;
  stopReason: RunStopReason;
  result: string;
  turns: number;
  usage: Usage;
  costUsd: number;
  durationMs: number;
  /** Isolated agents that changed files: the branch and what changed. */
  changes?: WorktreeChanges;
  error?: string;
  /** Things the parent should know (isolation fell back, the worktree could not be committed, …). */
  notes: string[];
}
