/** What the interactive UI shows of a session and of the process: plain data its queries answer with. */
import type { PermissionMode } from '../contracts/index.ts';
import type { ShellResult } from '../protocol/index.ts';
import type { AgentInfo, FileChange, SubagentOutcome, Usage, WorktreeState } from '../agent/index.ts';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';

export type { ShellResult };

export interface TuiInfo {
  version: string;
  model: string;
  cwd: string;
  /** Undefined outside a git repository. */
  gitBranch?: string;
  permissionMode: PermissionMode;
  sessionId: string;
  /** Tokens the model can hold, for the "context used" share in the status line. */
  contextWindow: number;
  /** Bash runs inside the OS sandbox (a marker in the status line). */
  osSandbox?: boolean;
}

export interface SessionSummary {
  id: string;
  title: string;
  /** Epoch milliseconds of the last activity. */
  updatedAt: number;
  model?: string;
}

/**
 * One prompt as the user sent it. The CLI turns it into message parts:
 * shell context first, then the attached files' contents, then the text.
 */
export interface PromptInput {
  text: string;
  /** Paths (relative to cwd) named with `@path`. */
  attachments: string[];
  /** `!command` runs since the last prompt. */
  shellContext: ShellResult[];
  /** MCP resources named with `@server:uri`, as `server:uri`. */
  resources?: string[];
  /** This run's model alone (a custom command's `model`); the next run is on the session's again. */
  model?: string;
}

/** A prompt of an MCP server, runnable as `/mcp__server__prompt args`. */
export interface McpPromptView {
  /** `mcp__server__prompt`: the slash command's name. */
  command: string;
  description?: string;
  /** The prompt's arguments in order: `/command a b` fills them left to right. */
  args: { name: string; required: boolean }[];
}

/** One configured MCP server, as /mcp shows it. */
export interface McpServerView {
  name: string;
  /** The file or flag it comes from. */
  origin: string;
  transport: 'stdio' | 'http' | 'sse' | 'sdk';
  status: 'connected' | 'connecting' | 'failed' | 'needs-auth' | 'needs-approval' | 'disabled';
  error?: string;
  /** stdio only: whether the OS sandbox wraps it (unknown until it started). */
  sandboxed?: boolean;
  tools: string[];
  prompts: McpPromptView[];
  /** Its resources as `server:uri` (what `@` completes), with their names. */
  resources: { ref: string; name: string }[];
}

/** A question an MCP server asks the user (`elicitation/create`, form mode): its message and the fields it wants. */
export interface ElicitationRequest {
  server: string;
  message: string;
  /** MCP's restricted schema: one flat object of string, number, boolean and enum properties. */
  requestedSchema: ElicitRequestFormParams['requestedSchema'];
}

/** The user's answer, as MCP's `ElicitResult` carries it. */
export type ElicitationAnswer = { action: 'accept'; content: Record<string, string | number | boolean | string[]> } | { action: 'decline' } | { action: 'cancel' };

/** Who answers servers' questions; `signal` aborts when the server withdraws one (cancelled, timed out). */
export type ElicitationHandler = (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;

export interface PermissionRuleView {
  rule: string;
  behavior: 'allow' | 'deny' | 'ask';
  /** Where the rule comes from: 'project', 'user', 'flag', 'session'. */
  source: string;
}

export interface HookView {
  event: string;
  matcher?: string;
  command: string;
  /** The settings file it comes from. */
  source: string;
  timeoutMs: number;
}

export interface ToolInfo {
  name: string;
  description: string;
  effect: string;
}

/** A skill (SKILL.md) the user can run as `/name args`. */
export interface SkillInfo {
  name: string;
  description: string;
  /** The arguments, as the usage line shows them: `<file> [focus]`. */
  args?: string;
}

export interface CostInfo {
  sessionCostUsd: number;
  usage: Usage;
  turns: number;
}

/** A sub-agent's status changed; `outcome` is set once it has ended. */
export interface SubagentUpdate {
  info: AgentInfo;
  outcome?: SubagentOutcome;
}

/** A named agent definition the model can run through the `task` tool. */
export interface AgentDefinitionInfo {
  name: string;
  description: string;
  model?: string;
  tools?: readonly string[];
}

/** A moat worktree of this repository (a sub-agent's branch), as `/agents` offers it. */
export interface WorktreeView {
  id: string;
  branch: string;
  description: string;
  state: WorktreeState;
  /** Committed changes on its branch (empty when the branch is gone). */
  files: FileChange[];
}
