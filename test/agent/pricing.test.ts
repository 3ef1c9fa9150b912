import { describe, expect, test } from 'bun:test';
import { costUsd, priceFor } from '../../src/agent/pricing.ts';

describe('pricing', () => {
  test('dated ids price like their family; longest prefix wins', () => {
    expect(priceFor('claude-sonnet-4-5-20250929')).toEqual({ input: 3, output: 15 });
    expect(priceFor('claude-opus-4-5-20251101')).toEqual({ input: 5, output: 25 });
    expect(priceFor('claude-opus-4-1-20250805')).toEqual({ input: 15, output: 75 });
    expect(priceFor('claude-haiku-4-5')).toEqual({ input: 1, output: 5 });
  });

  test('cost counts cache writes at 1.25x and reads at 0.1x of input', () => {
    const c = costUsd('claude-sonnet-4-5', {
      inputTokens: 1_000_000,
      outputTokens: 1_000_000,
      cacheCreationInputTokens: 1_000_000,
      cacheReadInputTokens: 1_000_000,
    });
    expect(c).toBeCloseTo(3 + 15 + 3.75 + 0.3, 10);
  });
});
