/**
 * What the interactive UI needs from the rest of moat, in three parts: the
 * session (every change of its state is one session operation, `submit`, and
 * a run is the host's `turn`), read-only queries, and the process's own
 * controls (MCP servers, sub-agents, worktrees, the shell, exit). The TUI
 * never touches a provider, a tool or SQLite: the CLI implements these on top
 * of the SessionHost, the store and the config; tests with a scripted fake.
 */
import type { PermissionMode } from '../contracts/index.ts';
import type { SessionEvent, SessionOp } from '../protocol/index.ts';
import type { AgentInfo, FileChange, MergeOutcome, Message, RewindOutcome, RewindPointView, RewindRequest, SubagentOutcome, Usage, WorktreeState } from '../agent/index.ts';
import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';

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

/** Output of a `!command` the user ran directly; it goes to the model as context with the next prompt. */
export interface ShellResult {
  command: string;
  output: string;
  exitCode: number | null;
  durationMs: number;
}

/**
 * One prompt as the user sent it. The controller turns it into message parts:
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

/**
 * The session operations the UI sends: answers, mode, model, rules (kept in the
 * project's or the user's file), `/clear`, `/resume` and trusting the folder.
 * Each takes effect at once; what it changed is read back through the queries.
 * A bad model name, a rule that does not parse or a switch while a run goes throws.
 */
export type TuiOp = Extract<SessionOp, { type: 'permission_answer' | 'set_permission_mode' | 'set_model' | 'add_rule' | 'remove_rule' | 'new_session' | 'resume' | 'trust_project' }>;

/** The session, as the UI drives it: operations in, each run's events out. */
export interface TuiSessionPort {
  submit(op: TuiOp): void;
  /** Runs one prompt; the stream ends with exactly one `run_finished`. */
  run(prompt: PromptInput, signal: AbortSignal): AsyncIterable<SessionEvent>;
  /** `/compact [instructions]`: replaces the conversation with a summary; the stream ends with exactly one `run_finished`. */
  compact(instructions: string | undefined, signal: AbortSignal): AsyncIterable<SessionEvent>;
  /** Files and/or conversation back to just before a user message (refused while a run goes). */
  rewind(req: RewindRequest): Promise<RewindOutcome>;
}

/** Everything the UI reads; nothing here changes state. */
export interface SessionQueries {
  info(): TuiInfo;
  /** Messages of a resumed session (`--resume` / `--continue`), shown before the first prompt. */
  initialMessages(): Message[];
  /** The open session's conversation (after a `resume` operation: the saved one's). */
  conversation(): Message[];
  /** Models offered by `/model` without an argument. */
  models(): string[];
  listSessions(): SessionSummary[];
  /** `/rewind`, Esc Esc: the session's user messages with what each changed. */
  rewindPoints(): Promise<RewindPointView[]>;
  /** Earlier prompts of this project, oldest first. */
  promptHistory(): string[];
  tools(): ToolInfo[];
  /** Skills the user can run with `/name args`. */
  skills(): SkillInfo[];
  /**
   * What `/name args` sends to the model: the skill's body with its arguments.
   * Undefined when no skill has that name; throws an Error whose message is the
   * usage line when a required argument is missing. Its !`cmd` lines are
   * decided as the model's Bash calls: their permission events go to
   * `onEvent` (a question is answered like a tool call's), and aborting
   * `signal` withdraws a question.
   */
  skillPrompt(name: string, args: string, signal?: AbortSignal, onEvent?: (e: SessionEvent) => void): Promise<string | undefined>;
  permissionRules(): PermissionRuleView[];
  /** What this project's settings would grant if the folder were trusted (one line per file); empty when trusted or nothing. */
  untrustedGrants(): string[];
  /** MCP servers of this process, for /mcp, the start-up approval and `@server:uri` completion. */
  mcpServers(): McpServerView[];
  /** Called when a server's state or lists change; returns the unsubscribe. */
  onMcpChange(listener: () => void): () => void;
  /** Things said once outside a run's events (the model router leaving images or tools out for a model); returns the unsubscribe. */
  onNotice(listener: (level: 'info' | 'warning', text: string) => void): () => void;
  /**
   * What `/mcp__server__prompt args` sends to the model: the prompt's messages
   * as text. Throws an Error whose message is the usage line when a required
   * argument is missing, or says why the server cannot answer.
   */
  mcpPrompt(command: string, args: string): Promise<string>;
  /** Command hooks in force, for /hooks. */
  hooks(): HookView[];
  /** Files under cwd for `@path` completion, .gitignore respected, relative paths. */
  listFiles(): Promise<string[]>;
  cost(): CostInfo;
  /** Agent definitions the `task` tool can run. */
  agentDefinitions(): AgentDefinitionInfo[];
  /** Every sub-agent of this process (any session, any depth), oldest first. */
  subagents(): AgentInfo[];
  /**
   * Follows sub-agents between runs too: a background agent's events stop
   * reaching the UI when its parent's run ends, its status does not.
   */
  onSubagentUpdate(listener: (update: SubagentUpdate) => void): () => void;
  /** moat worktrees of the current repository; empty outside one. */
  listWorktrees(): Promise<WorktreeView[]>;
  /** `git diff --stat` of a worktree's work (id or unique prefix). */
  worktreeDiffStat(id: string): Promise<string>;
}

/** What the process does beyond the session: MCP servers, sub-agents, worktrees, the user's shell, the prompt history, exit. */
export interface TuiControls {
  addPromptHistory(text: string): void;
  /** Approves this project's servers (remembered for the folder) and starts them. */
  approveMcpServers(names: readonly string[]): void;
  reconnectMcp(name: string): Promise<void>;
  /** From now on `handler` answers MCP servers' questions (the form); returns the unregister. Without a handler they are cancelled. */
  onElicitation(handler: ElicitationHandler): () => void;
  /** `!cmd`: checked as a Bash call is; a question and its answer come through `onEvent` as a tool call's permission events do. */
  runShell(command: string, signal: AbortSignal, onEvent?: (e: SessionEvent) => void): Promise<ShellResult>;
  /** Stops a queued or running sub-agent; false when none by that id is still going. */
  stopSubagent(agentId: string): boolean;
  mergeWorktree(id: string): Promise<{ branch: string; outcome: MergeOutcome }>;
  /** Removes the worktree and its branch; unmerged work needs `force`. */
  removeWorktree(id: string, force: boolean): Promise<{ branch: string }>;
  /**
   * Stops the sub-agents (their worktrees committed), then saves and closes
   * everything; called once before the process exits.
   */
  shutdown(): Promise<void>;
  /** Details that must not go to the screen (stack traces); the real controller writes a log file. */
  log(message: string): void;
}

/** The UI's whole way into moat. */
export interface TuiController extends TuiSessionPort, SessionQueries, TuiControls {}
