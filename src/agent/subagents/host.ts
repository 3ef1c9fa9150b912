/** What a session shares with sub-agent support, and what a child session gets from its parent. */
import type { AnyTool } from '../../tools/index.ts';
import type { CostMeter } from '../cost-meter.ts';
import type { AgentEvent } from '../events.ts';
import type { AgentSettings } from '../settings.ts';
import type { AgentCatalog } from './definition.ts';
import type { SubagentManager } from './manager.ts';

/** What a session shares with sub-agent support: the process-wide manager and the definitions. */
export interface SubagentSupport {
  manager: SubagentManager;
  catalog?: AgentCatalog;
}

export interface ChildSpec {
  agentId: string;
  settings: AgentSettings;
  /** Exactly the tools the sub-agent is offered (before task tools, which `allowSubagents` adds). */
  tools: AnyTool[];
  allowSubagents: boolean;
  parentMeter: CostMeter;
}

export interface ChildSession {
  readonly id: string;
  run(prompt: string, signal: AbortSignal): AsyncIterable<AgentEvent>;
}

/**
 * The parent session as the task tools see it. The session implements it
 * over its own state, so sub-agent code never reaches into session internals.
 */
export interface SubagentHost {
  readonly sessionId: string;
  /** 0 for a top-level session. */
  readonly depth: number;
  readonly support: SubagentSupport;
  /** The parent's settings now: mode, rules and model can change during a session. */
  settings(): AgentSettings;
  /** The tools the parent is offered (task tools included when it has them). */
  offeredTools(): AnyTool[];
  /** Into the parent's current run, if one is running. */
  emit(e: AgentEvent): void;
  /** What a sub-agent's spending is added to: the parent's current run, else its session. */
  meter(): CostMeter;
  openChild(spec: ChildSpec): ChildSession;
}
