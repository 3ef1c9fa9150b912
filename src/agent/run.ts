/** One run of a session — a user prompt to its `run_finished` — and the state that lives only that long. */
import type { ToolSpec, Usage } from '../providers/index.ts';
import type { AnyTool, ToolRegistry } from '../tools/index.ts';
import { CostMeter } from './cost-meter.ts';
import type { AgentEvent, ModelUsage, RunStopReason } from './events.ts';
import { ModelChain, tally } from './fallback.ts';
import { MAX_CONTINUATIONS, type AgentSettings } from './settings.ts';
import { RunCheckpoint, type TurnCheckpoints } from './turn-checkpoint.ts';

/** A model request that failed for good: why a run ended, with the HTTP status when there was one. */
export interface RequestFailure {
  status?: number | undefined;
}

/** The tools one request offers: the list, its names and the specs sent to the model. */
export interface OfferedTools {
  readonly tools: readonly AnyTool[];
  readonly names: ReadonlySet<string>;
  readonly specs: ToolSpec[];
}

/** What a run starts from. */
export interface RunSetup {
  /** Where the run's events go. */
  emit: (e: AgentEvent) => void;
  /** The run's budget (`--max-budget-usd`); undefined: none. */
  limitUsd: number | undefined;
  /** The session's meter, which the run's spending also goes to. */
  parentMeter: CostMeter;
  /** The session's turn count before this run: turn numbers continue across runs. */
  turnBase: number;
  /** The model the run starts on and its fallbacks. */
  models: Pick<AgentSettings, 'model' | 'fallbackModels'>;
  /** A user prompt's run: the session and where it records the files before its first change. */
  checkpoints?: { hook: TurnCheckpoints | undefined; sessionId: string };
}

/**
 * A run's own state: its meter (sub-agents started in it add their spending
 * here, so totals and the budget cover the tree), its event sink, its turn
 * counter, and the offered tools, rebuilt only when the registry's answer
 * changes (ToolSearch found some; a drop-in tool came or went).
 */
export class Run {
  readonly meter: CostMeter;
  readonly started = performance.now();
  /** Model requests made so far in this run. */
  turns = 0;
  /** Time spent waiting on model requests (retries and fallbacks included). */
  apiMs = 0;
  /** The last assistant text: the run's result. */
  lastText = '';
  /** The last request's usage tells how full the context is (see compaction.ts). */
  lastUsage: Usage | undefined;
  /** The run's model, moving down the fallback chain when one keeps failing (and staying there). */
  readonly chain: ModelChain;
  /** What the run spent on each model. */
  private readonly perModel = new Map<string, ModelUsage>();
  private continuations = 0;
  /** With an output schema: the answer the model gave through StructuredOutput. */
  structuredOutput: unknown;
  private structuredReminders = 0;
  /** The API refused the conversation as too long and it was compacted: a second refusal ends the run. */
  compactedOnRefusal = false;
  /** Times a Stop hook sent the model back to work in this run. */
  stopHookRounds = 0;
  /** A hook's `continue: false` (with its stopReason): the loop ends before the next request. */
  hookStop: string | undefined;
  private offered: OfferedTools | undefined;
  readonly emit: (e: AgentEvent) => void;
  /** The session's turn count before this run. */
  private readonly turnBase: number;

  /** The files before the run's first change (a no-op without checkpoints). */
  readonly checkpoint: RunCheckpoint;

  constructor(o: RunSetup) {
    this.emit = o.emit;
    this.checkpoint = new RunCheckpoint(o.checkpoints?.hook, o.checkpoints?.sessionId ?? '', o.turnBase + 1, o.emit);
    this.turnBase = o.turnBase;
    this.meter = new CostMeter(o.limitUsd, o.parentMeter);
    this.chain = new ModelChain(o.models.model, o.models.fallbackModels);
  }

  /** One request's spending, on the model it went to. */
  spent(model: string, spent: ModelUsage): void {
    this.meter.add(spent.usage, spent.costUsd);
    tally(this.perModel, model, spent);
  }

  /** The turn number the next request gets (session-wide). */
  get turn(): number {
    return this.turnBase + this.turns;
  }

  /**
   * The offered tools for the next request. `current` is the registry's
   * answer now; the names and specs are recomputed only when it differs from
   * the last one (same tool objects in the same order means nothing changed).
   */
  tools(current: readonly AnyTool[], registry: ToolRegistry): OfferedTools {
    const last = this.offered;
    if (last && last.tools.length === current.length && last.tools.every((t, i) => t === current[i])) return last;
    const names = current.map((t) => t.name);
    this.offered = { tools: current, names: new Set(names), specs: registry.specs(names) };
    return this.offered;
  }

  /** A `max_tokens` stop with no tool calls gets an automatic "continue", a few times per run. */
  mayContinue(): boolean {
    if (this.continuations >= MAX_CONTINUATIONS) return false;
    this.continuations++;
    return true;
  }

  /** The model ended without a structured answer: remind it, a few times per run. */
  mayRemind(limit: number): boolean {
    if (this.structuredReminders >= limit) return false;
    this.structuredReminders++;
    return true;
  }

  finished(stopReason: RunStopReason, error?: string, failure?: RequestFailure): Extract<AgentEvent, { type: 'run_finished' }> {
    return {
      type: 'run_finished',
      stopReason,
      result: this.lastText,
      turns: this.turns,
      usage: this.meter.usage,
      costUsd: this.meter.costUsd,
      durationMs: Math.round(performance.now() - this.started),
      apiDurationMs: Math.round(this.apiMs),
      ...(error === undefined ? {} : { error }),
      ...(failure === undefined ? {} : { requestFailed: true, ...(failure.status === undefined ? {} : { apiErrorStatus: failure.status }) }),
      ...(this.perModel.size === 0 ? {} : { modelUsage: Object.fromEntries(this.perModel) }),
      ...(this.structuredOutput === undefined ? {} : { structuredOutput: this.structuredOutput }),
    };
  }
}
