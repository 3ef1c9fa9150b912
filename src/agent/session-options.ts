/** What a session is opened with (its dependencies and options) and what one run may set for itself. */
import type { Provider } from '../providers/index.ts';
import type { Store } from '../store/index.ts';
import type { ToolRegistry } from '../tools/index.ts';
import type { CostMeter } from './cost-meter.ts';
import type { GitInfo } from '../util/index.ts';
import type { HookCallbackSet } from './hooks.ts';
import type { AskPermission, RememberRule } from './permission-gate.ts';
import type { ModelLookup } from './pricing.ts';
import type { AgentSettings } from './settings.ts';
import type { SubagentSupport } from './subagents/index.ts';

export interface AgentDeps {
  provider: Provider;
  registry: ToolRegistry;
  store: Store;
  settings: AgentSettings;
  /** Absent in -p mode: calls that would need a prompt are denied with a hint. */
  ask?: AskPermission;
  remember?: RememberRule;
  /** Sub-agent support (the process-wide manager, agent definitions); without it no task tools are offered. */
  subagents?: SubagentSupport;
  /** Hooks implemented as callbacks (an SDK program's); run for this session and its sub-agents. */
  hooks?: HookCallbackSet;
  /** What each `provider/model` costs and holds (the model router, with the user's catalogue entries). */
  models?: ModelLookup;
}

export interface OpenOptions {
  /** A session id (or unique prefix) to resume, or 'latest' for the newest session in cwd. */
  resume?: string;
  /** With `resume`: go on in a new session that starts with a copy of the history; the old one stays as it was. */
  fork?: boolean;
  /** The id a new session gets (default: a fresh UUID). */
  sessionId?: string;
  parentId?: string;
  /** For a sub-agent's session: its agent id, its depth (parent + 1) and the meter its spending rolls up into. */
  agentId?: string;
  depth?: number;
  parentMeter?: CostMeter;
  /** False: no task tools even with sub-agent support (a sub-agent whose tools did not list task). */
  allowSubagents?: boolean;
  /** SessionStart's `source` for a new session opened by /clear (otherwise `startup`, or `resume` when resumed). */
  startSource?: 'clear';
  /** The folder's git facts, started earlier (`gitInfo(cwd)`) so git runs while start-up does other work; default: started here. */
  git?: Promise<GitInfo | undefined>;
  /** Start-up work each prompt waits for before its first request is built (the driving program's own MCP servers, whose tools it must offer). */
  ready?: Promise<unknown>;
}

/** What one run may set for itself alone. */
export interface RunOptions {
  /** This run's model (a custom command's `model`); the session's model again from the next run. */
  model?: string;
}
