/** The agent layer's public surface: sessions, events, hooks, sub-agents and the permission gate. */
export type * from './events.ts';
export type { AssistantMessage, Message, ProviderErrorKind, ToolResultPart, Usage, UserMessage, UserPart } from '../providers/index.ts';
export { AgentSession, type AgentDeps, type OpenOptions, type RunOptions } from './session.ts';
export type { AgentSettings, OutputSchema, ReloadableSettings } from './settings.ts';
export type { AskPermission, RememberRule, RememberScope } from './permission-gate.ts';
export { costUsd, contextWindow, type ModelLookup } from './pricing.ts';
export { PermissionBroker } from './permission-broker.ts';
// The TUI shows a tool call's path or command before its input finishes streaming.
export { previewPartialJson } from '../providers/index.ts';
// Skills: the `skill` tool, the system-prompt listing types, and what front ends need for `/name args`.
export { createSkillTool } from './skill-tool.ts';
export type { PromptAgent, PromptSkill } from './system-prompt.ts';
export { expandSlashCommand, SkillUsageError, type Skill, type SlashExpansion } from '../skills/index.ts';
export { CostMeter } from './cost-meter.ts';
export { checkpointId, type TurnCheckpoints, type CodeRewind, type RewindPointView } from './turn-checkpoint.ts';
export { turnOf, type RewindRequest, type RewindOutcome } from './session-rewind.ts';
// Sub-agents: the manager (the TUI's /agents reads and stops them), definitions, and git worktrees (moat worktrees …).
export {
  SubagentManager,
  newAgentId,
  DEFAULT_MAX_AGENT_DEPTH,
  DEFAULT_MAX_CONCURRENT_AGENTS,
  TASK_TOOL_NAMES,
  resolveModel,
  announcedAgents,
  requestStop,
  retireAgent,
  createWorktree,
  finishWorktree,
  removeWorktree,
  repoInfo,
  requireRepo,
  listRecords,
  readRecord,
  processAlive,
  worktreeChanges,
  listWorktrees,
  findWorktree,
  diffWorktree,
  mergeWorktree,
  deleteWorktree,
  type WorktreeItem,
  type WorktreeState,
  type MergeOutcome,
  type AgentInfo,
  type SubagentOutcome,
  type SubagentManagerOptions,
  type AgentCatalog,
  type SubagentDefinition,
  type SubagentSupport,
  type RunningAgentFile,
  type FileChange,
  type RepoInfo,
  type WorktreeChanges,
  type WorktreeRecord,
} from './subagents/index.ts';
// Hooks implemented as callbacks (an SDK program's): the shapes the loop and the hooks runner share.
export type { HookCallback, HookCallbackSet, HookInput, HookJsonOutput, HookOutcome, HookStdout, PreToolUseOutcome } from './hooks.ts';
export { HOOK_STDOUT, mergeHookSets, runHooks, runPreToolUse } from './hooks.ts';
export { commandHookCallbacks, hookOutput, type CommandHookContext } from './command-hooks.ts';
export { STRUCTURED_OUTPUT_TOOL } from './structured-output.ts';
export { toolUseResult, type FinishedCall } from './tool-use-result.ts';
/** `--json-schema`'s validator, loaded only for a run given a schema (output-validator.ts). */
// Loaded on first use: with task-call, output-validator, hook-process, process-grants, discover and wasm-call up front, -p's first byte came 5.4 ms later (CPU +2.9 ms, RSS +1.1 MB; startup bench, n=20).
export const loadOutputValidator = (): Promise<typeof import('./output-validator.ts')> => import('./output-validator.ts');
