/** The operations a front end sends into a session: the only way in, whoever the front end is. */
import type { PermissionDecision, PermissionMode, UserPart } from '../agent/index.ts';

/**
 * One operation into a session. The TUI, `-p` and the stream-json input mode
 * (programs, the Claude Agent SDK) all drive a session with these and nothing
 * else; what they get back is the session's event stream (`SessionEvent`).
 */
export type SessionOp =
  /** Starts a run; while one runs, it waits its turn (runs never overlap). */
  | { type: 'user_message'; content: string | UserPart[] }
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
  /** No more operations: the event stream ends after the waiting runs have finished. */
  | { type: 'end' };

export type SessionOpType = SessionOp['type'];
