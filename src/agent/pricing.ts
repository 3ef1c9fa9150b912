import type { Usage } from '../providers/index.ts';

/** USD per million tokens. Cache writes cost 1.25× input and cache reads 0.1× input (5-minute cache). */
interface Price {
  input: number;
  output: number;
}

/**
 * Longest prefix wins, so dated model ids (`claude-sonnet-4-5-20250929`) price
 * like their family. Keep in sync with Anthropic's published prices.
 */
const PRICES: [prefix: string, price: Price][] = [
  ['claude-opus-4-5', { input: 5, output: 25 }],
  ['claude-opus-4-1', { input: 15, output: 75 }],
  ['claude-opus-4', { input: 15, output: 75 }],
  ['claude-sonnet-4', { input: 3, output: 15 }],
  ['claude-3-7-sonnet', { input: 3, output: 15 }],
  ['claude-3-5-sonnet', { input: 3, output: 15 }],
  ['claude-haiku-4', { input: 1, output: 5 }],
  ['claude-3-5-haiku', { input: 0.8, output: 4 }],
  ['claude-3-haiku', { input: 0.25, output: 1.25 }],
  ['claude-3-opus', { input: 15, output: 75 }],
];

/** Unknown models are priced like Sonnet: better an estimate than a silent zero for budgets. */
const FALLBACK: Price = { input: 3, output: 15 };

export function priceFor(model: string): Price {
  let best: Price | undefined;
  let bestLen = -1;
  for (const [prefix, price] of PRICES) {
    if (model.startsWith(prefix) && prefix.length > bestLen) {
      best = price;
      bestLen = prefix.length;
    }
  }
  return best ?? FALLBACK;
}

export function costUsd(model: string, usage: Usage): number {
  const p = priceFor(model);
  const perToken = 1 / 1_000_000;
  return (
    usage.inputTokens * p.input * perToken +
    usage.outputTokens * p.output * perToken +
    usage.cacheCreationInputTokens * p.input * 1.25 * perToken +
    usage.cacheReadInputTokens * p.input * 0.1 * perToken
  );
}

/** Context window in tokens, for the TUI's "context used" share. */
export function contextWindow(model: string): number {
  return model.includes('[1m]') ? 1_000_000 : 200_000;
}
