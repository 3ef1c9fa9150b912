/** The session protocol: operations in, typed events out; the TUI, `-p` and stream-json input are its clients. */
export type { SessionOp, SessionOpType } from './ops.ts';
export { toSessionEvent, type SessionEvent, type SessionEventType, type SubagentSessionEvent, type RunFinishedEvent, type PermissionRequestEvent } from './events.ts';
export { compactOp } from './compact-command.ts';
export { SessionHost, rewindNotice, type ProtocolAgent, type SessionOwner } from './session-host.ts';
