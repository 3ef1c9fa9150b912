/**
 * Cost and context size of a model, from the models catalogue (providers/
 * catalog.ts) through a model lookup: the session's router, which knows the
 * user's `[providers.<name>.models]` entries, or the built-in catalogue alone.
 */
import { costOf, ModelRouter, type ModelInfo, type Usage } from '../providers/index.ts';

/** Anything that can say what a `provider/model` string is (the ModelRouter does). */
export interface ModelLookup {
  info(model: string): ModelInfo;
}

/** The built-in catalogue and providers, for callers that have no router of their own. */
const BUILTIN: ModelLookup = new ModelRouter({ env: {} });

function infoOf(model: string, models: ModelLookup): ModelInfo {
  try {
    return models.info(model);
  } catch {
    // A name no provider takes was refused when it was chosen; for counting, price it as unknown.
    return BUILTIN.info(model.replace(/^[^/]*\//, ''));
  }
}

/** USD per million tokens: input and output. */
export function priceFor(model: string, models: ModelLookup = BUILTIN): { input: number; output: number } {
  const { input, output } = infoOf(model, models).price;
  return { input, output };
}

export function costUsd(model: string, usage: Usage, models: ModelLookup = BUILTIN): number {
  return costOf(infoOf(model, models), usage);
}

/** What Claude Code's `modelUsage` reports of a model besides its spending. */
export function modelLimits(model: string, models: ModelLookup = BUILTIN): { contextWindow: number; maxOutputTokens: number } {
  return { contextWindow: contextWindow(model, models), maxOutputTokens: infoOf(model, models).maxOutput };
}

/** Context window in tokens, for the TUI's "context used" share and the compaction threshold. */
export function contextWindow(model: string, models: ModelLookup = BUILTIN): number {
  // Claude Code's `[1m]` suffix asks for the 1M-token context beta.
  if (model.includes('[1m]')) return 1_000_000;
  return infoOf(model, models).contextWindow;
}
