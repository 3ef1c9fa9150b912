/**
 * The fallback chain: when the current model is still failing after the
 * retry policy gave up (overloaded, 5xx, rate limited, cut off), the turn is
 * sent to the next model of `--fallback-model` / `fallback = [...]`, and the
 * run stays on it. The request is the same neutral one; the adapter of the
 * next model converts the history for its own API (another vendor's thinking
 * is dropped, tool call ids are kept).
 */
import type { ProviderError, ProviderErrorKind, ProviderRequest, Usage } from '../providers/index.ts';
import { addUsage } from '../providers/index.ts';
import type { ModelUsage } from './events.ts';
import { streamTurn, type TurnOutcome, type TurnRequest } from './turn.ts';

/**
 * Failures that say the model or its service is unwell, not that the request
 * is wrong: another model may well answer. A bad request, a missing key or an
 * abort would fail the same way anywhere (or must not be sent anywhere).
 */
const FALLBACK_KINDS: ReadonlySet<ProviderErrorKind> = new Set(['overloaded', 'server', 'rate_limit', 'connection', 'stream', 'stalled']);

export class ModelChain {
  private readonly models: string[];
  private index = 0;

  /** `primary` first, then the fallbacks in order, each once. */
  constructor(primary: string, fallbacks: readonly string[] = []) {
    this.models = [...new Set([primary, ...fallbacks])];
  }

  get current(): string {
    return this.models[this.index] ?? this.models[0] ?? '';
  }

  /** Moves to the next model when `error` calls for it; the new model, or undefined when there is none. */
  advance(error: ProviderError): string | undefined {
    if (!FALLBACK_KINDS.has(error.kind) || this.index + 1 >= this.models.length) return undefined;
    this.index++;
    return this.current;
  }
}

/** One model request on a fallback chain: the request names no model, the chain does. */
export interface ChainTurnRequest extends Omit<TurnRequest, 'request'> {
  chain: ModelChain;
  request: Omit<ProviderRequest, 'model'>;
  /** Told the usage of every attempt, on the model it was spent on (a failed attempt may have streamed and been billed). */
  spend: (model: string, usage: Usage) => void;
}

/** One turn on the chain's current model, moving down the chain while models fail. */
export async function streamTurnOnChain({ chain, request, spend, ...turnRequest }: ChainTurnRequest): Promise<{ outcome: TurnOutcome; model: string }> {
  const { turn, signal, emit } = turnRequest;
  for (;;) {
    const model = chain.current;
    const outcome = await streamTurn({ ...turnRequest, request: { ...request, model } });
    if (outcome.kind === 'error' && !signal.aborted) {
      const next = chain.advance(outcome.error);
      if (next !== undefined) {
        spend(model, outcome.usage);
        emit({ type: 'model_fallback', turn, from: model, to: next, reason: outcome.error.message, trigger: outcome.error.kind });
        continue;
      }
    }
    return { outcome, model };
  }
}

/** Adds one model's spending to a per-model tally. */
export function tally(into: Map<string, ModelUsage>, model: string, spent: ModelUsage): void {
  const before = into.get(model);
  into.set(model, before === undefined ? spent : { ...spent, usage: addUsage(before.usage, spent.usage), costUsd: before.costUsd + spent.costUsd });
}
