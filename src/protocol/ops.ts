/** The operations a front end sends into a session: the only way in, whoever the front end is. */
import type { PermissionMode } from '../contracts/index.ts';
import type { HookCallbackSet, MergeOutcome, PermissionDecision, ReloadableSettings, RewindOutcome, RewindRequest, UserPart } from '../agent/index.ts';

/**
 * One operation into a session. The TUI, `-p` and the stream-json input mode
 * (programs, the Claude Agent SDK) all drive a session with these and nothing
 * else; what they get back is the session's event stream (`SessionEvent`).
 */
export type SessionOp =
  /**
   * Starts a run; while one runs, it waits its turn (runs never overlap).
   * `model`: this run's model alone (a custom command's `model`); the next run is on the session's again.
   */
  | { type: 'user_message'; content: string | UserPart[]; model?: string }
  /**
   * `/compact [instructions]`: replaces the history with a model-written summary now, as a run of its own
   * (queued like a user message; PreCompact hooks see trigger `manual` and the instructions).
   */
  | { type: 'compact'; instructions?: string }
  /** Aborts the run in progress through its one AbortSignal; it ends with `run_finished` stopReason `aborted`. */
  | { type: 'interrupt' }
  /** The answer to one `permission_request` event, from a dialog, an SDK's can_use_tool reply or a hook. */
  | { type: 'permission_answer'; requestId: string; decision: PermissionDecision }
  /** Takes effect from the next run (plan mode changes which tools are offered). */
  | { type: 'set_permission_mode'; mode: PermissionMode }
  /** Takes effect from the next model request. */
  | { type: 'set_model'; model: string }
  /** Extended thinking budget in tokens from the next model request; null turns thinking off. */
  | { type: 'set_thinking_budget'; tokens: number | null }
  /**
   * A permission rule the user added (`/permissions allow|deny`), from the next call on; a rule that does not parse throws.
   * `scope`: also kept in that settings file (the project's is approved for this folder), for later sessions.
   */
  | { type: 'add_rule'; behavior: 'allow' | 'deny'; rule: string; scope?: 'project' | 'user' }
  /** Drops every rule with this text, also one an "always" answer granted or a settings file keeps, from the next call on. */
  | { type: 'remove_rule'; behavior: 'allow' | 'deny'; rule: string }
  /**
   * `/clear`: the session ends (SessionEnd, reason `clear`) and a fresh one opens with the model and mode in force;
   * between runs only. Questions still open are denied.
   */
  | { type: 'new_session' }
  /** `/resume`: the open session ends and a saved one (id or unique prefix) goes on; between runs only. */
  | { type: 'resume'; sessionId: string }
  /**
   * The user trusts the project folder: it is remembered, the configuration is read again and what it grants
   * (rules, folders, OS sandbox policy, hooks, env) applies to the open session at once (as `apply_config`).
   */
  | { type: 'trust_project' }
  /**
   * The folder's configuration was read again (the user trusted it): its rules, extra folders, OS sandbox
   * policy and hooks replace the session's from the next call on; the model, the mode and "always" grants stay.
   */
  | { type: 'apply_config'; settings: ReloadableSettings; hooks: HookCallbackSet | undefined }
  /**
   * Between runs: the files and/or the conversation back to just before a user message (its `checkpointId`).
   * The outcome is a `notice`; `SessionHost.rewind` answers with it instead.
   */
  | ({ type: 'rewind' } & RewindRequest)
  /**
   * `!cmd`: the user's own shell command, queued like a run. It is checked as the model's Bash call is (the
   * same permission events; a question is answered with `permission_answer`), runs in the OS sandbox with the
   * grant it got, and its events end with exactly one `shell_finished`.
   */
  | { type: 'shell'; command: string }
  /**
   * `/name args`: what a skill (or custom command) would send, its !`cmd` lines run. Queued like a run: each line is
   * checked as the model's Bash call is (the same permission events), and its events end with exactly one
   * `skill_expanded` carrying the prompt and the model the skill asks for. Nothing is sent to the model: the front end
   * sends the prompt as a `user_message` (with that model) once the user sees it is ready.
   */
  | { type: 'expand_skill'; name: string; args: string }
  /** Keeps a prompt in this project's history (the prompt's ↑, here and in later sessions). Empty text throws. */
  | { type: 'add_prompt_history'; text: string }
  /** The user approves these project MCP servers for the folder (remembered) and they start. A name no server has throws. */
  | { type: 'approve_mcp_servers'; names: string[] }
  /** Stops and starts an MCP server again; answered once it has connected (or failed). A name no server has is refused. */
  | { type: 'reconnect_mcp'; server: string }
  /** Stops a queued or running sub-agent (its work so far committed on its branch); throws when none by that id is still going. */
  | { type: 'stop_subagent'; agentId: string }
  /** Merges a moat worktree's branch (id or unique prefix) into the current branch, checkpointed with the open session so a rewind undoes it. */
  | { type: 'merge_worktree'; id: string }
  /** Removes a moat worktree and its branch; unmerged work needs `force`. */
  | { type: 'remove_worktree'; id: string; force?: boolean }
  /** No more operations: the event stream ends after the waiting runs have finished. */
  | { type: 'end' };

export type SessionOpType = SessionOp['type'];

/**
 * What an operation answers, for the ones a caller may wait on: `SessionHost.request(op)` resolves with it
 * (or rejects with the reason it was refused). Sent with `submit` instead, the outcome becomes a `notice`.
 */
export interface OpAnswers {
  rewind: RewindOutcome;
  reconnect_mcp: undefined;
  merge_worktree: { branch: string; outcome: MergeOutcome };
  remove_worktree: { branch: string };
}

/** An operation with an answer. */
export type RequestOp = Extract<SessionOp, { type: keyof OpAnswers }>;
