/** The sub-agents folder's public surface: manager, tools, worktrees and definitions. */
export { SubagentManager, newAgentId, DEFAULT_MAX_AGENT_DEPTH, DEFAULT_MAX_CONCURRENT_AGENTS, type AgentInfo, type SubagentOutcome, type SubagentManagerOptions } from './manager.ts';
export type { AgentCatalog, SubagentDefinition } from './definition.ts';
export { TASK_TOOL_NAMES, resolveModel } from './definition.ts';
export type { SubagentHost, SubagentSupport, ChildSpec, ChildSession } from './host.ts';
export { taskTool } from './task-tool.ts';
export { taskStatusTool } from './task-status-tool.ts';
export { taskResultTool } from './task-result-tool.ts';
export { announcedAgents, requestStop, retireAgent, agentFile, type RunningAgentFile } from './control-files.ts';
export { createWorktree, finishWorktree, removeWorktree, repoInfo, requireRepo, slugify, worktreeChanges, type FileChange, type RepoInfo, type WorktreeChanges } from './worktree.ts';
export { listRecords, readRecord, processAlive, type WorktreeRecord } from './worktree-records.ts';
export { listWorktrees, findWorktree, diffWorktree, mergeWorktree, deleteWorktree, type WorktreeItem, type WorktreeState, type MergeOutcome } from './worktree-ops.ts';
