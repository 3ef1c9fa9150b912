/** The session protocol: operations in, typed events out; the TUI, `-p` and stream-json input are its clients. */
export type { SessionOp, SessionOpType, OpAnswers, RequestOp } from './ops.ts';
export { toSessionEvent, type SessionEvent, type SessionEventType, type SubagentSessionEvent, type RunFinishedEvent, type PermissionRequestEvent, type ShellFinishedEvent, type SkillExpandedEvent, type ShellResult } from './events.ts';
export type { ProtocolAgent, SessionOwner, SessionStart, OwnerControls } from './session-owner.ts';
export { compactOp } from './compact-command.ts';
export { SessionHost, rewindNotice } from './session-host.ts';
