/** The stream-json input mode: programs and the Claude Agent SDK drive a session over stdin/stdout. */
export { runStreamJsonClient, toDecision, type OpenedSession, type StreamJsonClientDeps, type StreamJsonOutcome } from './stream-json-client.ts';
export { hookCallbacks, type HookCallbackSet, type SendHookCallback } from './hook-callbacks.ts';
export { InputLine, InitializeRequest, PermissionResult, type UserInput } from './messages.ts';
export { programMcpTransport, type SendControlRequest, type ProgramMcpTransport } from './mcp-bridge.ts';
export { programElicitation, type ElicitationAsk, type ElicitationAnswer } from './elicitation.ts';
