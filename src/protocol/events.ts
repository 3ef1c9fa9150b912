/** The events a session sends out: the agent's typed event stream, as front ends see it. */
import type { AgentEvent } from '../agent/index.ts';

/**
 * Everything a front end learns about a session. A permission prompt is one
 * `permission_request` event, answered by one `permission_answer` operation;
 * calls that rules or the mode decide never show up as a question. Each run
 * ends with exactly one `run_finished`.
 */
export type SessionEvent = AgentEvent;

export type RunFinishedEvent = Extract<SessionEvent, { type: 'run_finished' }>;
export type PermissionRequestEvent = Extract<SessionEvent, { type: 'permission_request' }>;
