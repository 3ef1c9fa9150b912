/**
 * The interactive UI's way into moat, in three parts: the session (every
 * change of state is one session operation, sent to the SessionHost; runs,
 * `!cmd`s and skills' expansions are followed through their events), read-only queries, and the
 * process's lifecycle (exit, the log, who answers MCP servers' questions).
 * The TUI never touches a provider, a tool or SQLite: the CLI implements these
 * over the SessionHost, the store and the config; tests with a scripted fake.
 */
import type { OpAnswers, RequestOp, SessionEvent, SessionOp } from '../protocol/index.ts';
import type { AgentInfo, Message, RewindPointView } from '../agent/index.ts';
import type {
  AgentDefinitionInfo,
  CostInfo,
  ElicitationHandler,
  HookView,
  McpServerView,
  PermissionRuleView,
  PromptInput,
  SessionSummary,
  SkillInfo,
  SubagentUpdate,
  ToolInfo,
  TuiInfo,
  WorktreeView,
} from './views.ts';

/**
 * The operations the UI sends without waiting for an answer: permission
 * answers, mode, model, rules (kept in the project's or the user's file),
 * `/clear`, `/resume`, trusting the folder, the prompt history, approving MCP
 * servers, stopping a sub-agent. Each takes effect at once; what it changed is
 * read back through the queries. Bad input (a model no provider takes, a rule
 * that does not parse, a sub-agent that already ended) or a switch while a
 * run goes throws.
 */
export type TuiOp = Extract<
  SessionOp,
  {
    type: 'permission_answer' | 'set_permission_mode' | 'set_model' | 'add_rule' | 'remove_rule' | 'new_session' | 'resume' | 'trust_project' | 'add_prompt_history' | 'approve_mcp_servers' | 'stop_subagent';
  }
>;

/** The session, as the UI drives it: the host's operations, and the events of what it runs. */
export interface SessionPort {
  submit(op: TuiOp): void;
  /** An operation the UI waits on (rewind, reconnect an MCP server, merge or remove a worktree): its answer, or why it was refused. */
  request<O extends RequestOp>(op: O): Promise<OpAnswers[O['type']]>;
  /** Runs one prompt; the stream ends with exactly one `run_finished`. */
  run(prompt: PromptInput, signal: AbortSignal): AsyncIterable<SessionEvent>;
  /** `/compact [instructions]`: replaces the conversation with a summary; the stream ends with exactly one `run_finished`. */
  compact(instructions: string | undefined, signal: AbortSignal): AsyncIterable<SessionEvent>;
  /** `!cmd`: checked as a Bash call is (its question, if any, comes as a tool call's does); the stream ends with exactly one `shell_finished`. */
  shell(command: string, signal: AbortSignal): AsyncIterable<SessionEvent>;
  /**
   * `/name args`: what the skill would send, its !`cmd` lines run (each checked as a Bash call is: a question comes
   * as a tool call's does, and aborting `signal` withdraws it). The stream ends with exactly one `skill_expanded`:
   * the prompt (absent: no skill has that name) and the model it asks for, or the usage line as its `error`.
   */
  expandSkill(name: string, args: string, signal: AbortSignal): AsyncIterable<SessionEvent>;
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

/**
 * The process around the UI, not any session's state, so not operations:
 * sessions come and go under one UI (/clear, /resume) while these stay.
 */
export interface TuiLifecycle {
  /**
   * From now on `handler` answers MCP servers' questions (the form); returns the unregister. Without a handler
   * they are cancelled. A server asks whenever it likes, between runs too, so this is a registration rather
   * than events inside a run's stream.
   */
  onElicitation(handler: ElicitationHandler): () => void;
  /**
   * Stops the sub-agents (their worktrees committed), then saves and closes
   * everything; called once before the process exits.
   */
  shutdown(): Promise<void>;
  /** Details that must not go to the screen (stack traces); the real one writes a log file. */
  log(message: string): void;
}

/** The UI's whole way into moat. */
export interface TuiClient {
  readonly session: SessionPort;
  readonly queries: SessionQueries;
  readonly lifecycle: TuiLifecycle;
}
