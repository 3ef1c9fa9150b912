export type * from './events.ts';
export type { AssistantMessage, Message, ToolResultPart, Usage, UserMessage, UserPart } from '../providers/index.ts';
export { AgentSession, type AgentDeps, type OpenOptions } from './session.ts';
export type { AgentSettings } from './settings.ts';
export type { AskPermission, PermissionMode, RememberRule } from './permission-gate.ts';
export { costUsd, contextWindow } from './pricing.ts';
export { gitInfo, type GitInfo } from './git-info.ts';
export { PermissionBroker } from './permission-broker.ts';
// The TUI shows a tool call's path or command before its input finishes streaming.
export { previewPartialJson } from '../providers/index.ts';
