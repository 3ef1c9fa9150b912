/** What a SessionHost drives (the agent) and what it asks of its owner (sessions, settings files, the process's servers, sub-agents and worktrees). */
import type { PermissionMode } from '../contracts/index.ts';
import type { AgentEvent, AskPermission, HookCallbackSet, OpenOptions, ReloadableSettings, RewindOutcome, RewindRequest, RunOptions, UserPart } from '../agent/index.ts';
import type { ShellResult } from './events.ts';
import type { OpAnswers } from './ops.ts';

/** What the host drives: an AgentSession. */
export interface ProtocolAgent {
  run(prompt: string | UserPart[], signal: AbortSignal, opts?: RunOptions): AsyncIterable<AgentEvent>;
  /** `/compact`: a run of its own that replaces the history with a summary. */
  compact(instructions: string | undefined, signal: AbortSignal): AsyncIterable<AgentEvent>;
  setModel(model: string): void;
  setPermissionMode(mode: PermissionMode): void;
  setThinkingBudget(tokens: number | undefined): void;
  addRule(behavior: 'allow' | 'deny', rule: string): void;
  removeRule(behavior: 'allow' | 'deny', rule: string): void;
  applyConfig(settings: ReloadableSettings, hooks: HookCallbackSet | undefined): void;
  /** Files and/or conversation back to before a user message; absent: the session cannot rewind. */
  rewind?(req: RewindRequest): Promise<RewindOutcome>;
}

/**
 * Where the host's sessions come from, and what outlives one session: the
 * settings files rules are kept in, the folder's trust, and the process's
 * MCP servers, sub-agents, worktrees and prompt history. A front end gives
 * only what its users can ask for (-p gives `open`); an operation whose part
 * is missing is refused with a usage error.
 */
export interface SessionOwner<A extends ProtocolAgent> {
  /**
   * Opens a session whose questions go to `ask` (undefined: nothing can answer). `start`: for one opened by
   * `new_session` or `resume`, the model and mode the front end set on the host's sessions so far (/clear keeps them).
   */
  open(ask: AskPermission | undefined, how: OpenOptions, start?: SessionStart): A;
  /** Throws for a model no provider takes: `set_model` refuses it before the session changes. */
  checkModel?(model: string): void;
  /** A session left by `new_session` or `resume` ends (its SessionEnd hooks run). */
  end?(agent: A): void;
  /** Keeps a rule in a settings file (`add_rule` with a scope). */
  keepRule?(behavior: 'allow' | 'deny', rule: string, scope: 'project' | 'user'): void;
  /** Drops a rule from the settings files that keep it. */
  forgetRule?(behavior: 'allow' | 'deny', rule: string): void;
  /** Trusts the folder and reads its configuration again: what it now grants; undefined when nothing changes. */
  trust?(): { settings: ReloadableSettings; hooks: HookCallbackSet | undefined } | undefined;
  /** The process's parts beyond the sessions, reached through operations. */
  controls?: OwnerControls<A>;
}

/** What a front end set with `set_model` and `set_permission_mode`, carried into the sessions the host opens later. */
export interface SessionStart {
  model?: string;
  permissionMode?: PermissionMode;
}

/**
 * The operations on what the process holds beside its sessions. Each one
 * validates its input and throws a one-line error the user can act on; the
 * host calls each as a plain function (not on this object).
 */
export interface OwnerControls<A extends ProtocolAgent> {
  /** `shell`: checked as `agent`'s Bash call is (its permission events through `emit`), then run. */
  shell?(agent: A, command: string, signal: AbortSignal, emit: (e: AgentEvent) => void): Promise<ShellResult>;
  /** `expand_skill`: the skill's prompt with its !`cmd` lines run (each checked as `agent`'s Bash call, events through `emit`); undefined when no skill has that name. */
  expandSkill?(agent: A, name: string, args: string, signal: AbortSignal, emit: (e: AgentEvent) => void): Promise<{ prompt: string; model?: string } | undefined>;
  addPromptHistory?(text: string): void;
  approveMcpServers?(names: readonly string[]): void;
  reconnectMcp?(server: string): Promise<OpAnswers['reconnect_mcp']>;
  /** False when no sub-agent by that id is still going. */
  stopSubagent?(agentId: string): boolean;
  /** `agent`: the open session, whose checkpoint the merge is recorded in. */
  mergeWorktree?(agent: A, id: string): Promise<OpAnswers['merge_worktree']>;
  removeWorktree?(id: string, force: boolean): Promise<OpAnswers['remove_worktree']>;
}
