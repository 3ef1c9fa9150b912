/**
 * The models catalogue shipped in the binary: context window, output limit,
 * prices per million tokens (cache reads and writes included) and what each
 * model can do. Cost, the status line's context share, compaction thresholds
 * and the output cap all read it; a `[providers.<name>.models.<id>]` entry in
 * the user's config overrides or adds to it.
 *
 * Prices are the vendors' published list prices (USD per million tokens).
 * Longest prefix wins within a provider, so dated ids
 * (`claude-sonnet-4-5-20250929`) take their family's entry.
 */

export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface ModelCapabilities {
  tools: boolean;
  images: boolean;
  reasoning: boolean;
}

export interface ModelInfo {
  /** The provider name in `provider/model` (`anthropic`, `openai`, `ollama`…). */
  provider: string;
  id: string;
  contextWindow: number;
  maxOutput: number;
  price: ModelPrice;
  capabilities: ModelCapabilities;
  /** False when nothing in the catalogue or config knows the model and these are guesses. */
  known: boolean;
}

/** A config entry: any field left out keeps the catalogue's value (or the guess). */
export interface ModelOverride {
  contextWindow?: number;
  maxOutput?: number;
  price?: Partial<ModelPrice>;
  capabilities?: Partial<ModelCapabilities>;
}

type Entry = Omit<ModelInfo, 'provider' | 'id' | 'known'>;

const ALL: ModelCapabilities = { tools: true, images: true, reasoning: true };
const NO_REASONING: ModelCapabilities = { tools: true, images: true, reasoning: false };
const TEXT_ONLY_REASONING: ModelCapabilities = { tools: true, images: false, reasoning: true };
const TEXT_ONLY: ModelCapabilities = { tools: true, images: false, reasoning: false };

/** Anthropic: a 5-minute cache write costs 1.25× input, a cache read 0.1×. */
function claude(input: number, output: number, maxOutput: number, capabilities = ALL): Entry {
  return { contextWindow: 200_000, maxOutput, price: { input, output, cacheWrite: input * 1.25, cacheRead: input * 0.1 }, capabilities };
}

/** OpenAI and Gemini bill cached input at a discount and charge nothing to write the cache. */
function cached(contextWindow: number, maxOutput: number, input: number, output: number, cacheRead: number, capabilities: ModelCapabilities): Entry {
  return { contextWindow, maxOutput, price: { input, output, cacheRead, cacheWrite: 0 }, capabilities };
}

const BUILTIN: Record<string, Record<string, Entry>> = {
  anthropic: {
    'claude-opus-4-5': claude(5, 25, 64_000),
    'claude-opus-4-1': claude(15, 75, 32_000),
    'claude-opus-4': claude(15, 75, 32_000),
    'claude-sonnet-4-5': claude(3, 15, 64_000),
    'claude-sonnet-4': claude(3, 15, 64_000),
    'claude-3-7-sonnet': claude(3, 15, 64_000),
    'claude-3-5-sonnet': claude(3, 15, 8192, NO_REASONING),
    'claude-haiku-4-5': claude(1, 5, 64_000),
    'claude-3-5-haiku': claude(0.8, 4, 8192, NO_REASONING),
    'claude-3-haiku': claude(0.25, 1.25, 4096, NO_REASONING),
    'claude-3-opus': claude(15, 75, 4096, NO_REASONING),
  },
  openai: {
    'gpt-5.1': cached(400_000, 128_000, 1.25, 10, 0.125, ALL),
    'gpt-5.1-codex': cached(400_000, 128_000, 1.25, 10, 0.125, ALL),
    'gpt-5.1-codex-max': cached(400_000, 128_000, 1.25, 10, 0.125, ALL),
    'gpt-5.1-codex-mini': cached(400_000, 128_000, 0.25, 2, 0.025, ALL),
    'gpt-5': cached(400_000, 128_000, 1.25, 10, 0.125, ALL),
    'gpt-5-codex': cached(400_000, 128_000, 1.25, 10, 0.125, ALL),
    'gpt-5-mini': cached(400_000, 128_000, 0.25, 2, 0.025, ALL),
    'gpt-5-nano': cached(400_000, 128_000, 0.05, 0.4, 0.005, ALL),
    'gpt-4.1': cached(1_047_576, 32_768, 2, 8, 0.5, NO_REASONING),
    'gpt-4.1-mini': cached(1_047_576, 32_768, 0.4, 1.6, 0.1, NO_REASONING),
    'gpt-4.1-nano': cached(1_047_576, 32_768, 0.1, 0.4, 0.025, NO_REASONING),
    'gpt-4o': cached(128_000, 16_384, 2.5, 10, 1.25, NO_REASONING),
    'gpt-4o-mini': cached(128_000, 16_384, 0.15, 0.6, 0.075, NO_REASONING),
    o3: cached(200_000, 100_000, 2, 8, 0.5, ALL),
    'o4-mini': cached(200_000, 100_000, 1.1, 4.4, 0.275, ALL),
  },
  gemini: {
    'gemini-3-pro': cached(1_048_576, 65_536, 2, 12, 0.2, ALL),
    'gemini-2.5-pro': cached(1_048_576, 65_536, 1.25, 10, 0.125, ALL),
    'gemini-2.5-flash': cached(1_048_576, 65_536, 0.3, 2.5, 0.03, ALL),
    'gemini-2.5-flash-lite': cached(1_048_576, 65_536, 0.1, 0.4, 0.01, ALL),
    // The 2.0 models do not think: the API answers 400 to any thinkingConfig.
    'gemini-2.0-flash': cached(1_048_576, 8192, 0.1, 0.4, 0.025, NO_REASONING),
    // No cache discount is listed for 2.0 Flash-Lite: cached input at the input price.
    'gemini-2.0-flash-lite': cached(1_048_576, 8192, 0.075, 0.3, 0.075, NO_REASONING),
  },
  deepseek: {
    'deepseek-chat': cached(128_000, 8192, 0.28, 0.42, 0.028, TEXT_ONLY),
    'deepseek-reasoner': cached(128_000, 65_536, 0.28, 0.42, 0.028, TEXT_ONLY_REASONING),
  },
};

/** Where a hosted copy of another vendor's models is listed under that vendor's entries. */
const MIRRORS: Record<string, string> = { bedrock: 'anthropic', vertex: 'anthropic' };

/** Unknown Anthropic-API models are priced like Sonnet: better an estimate than a silent zero for budgets. */
const UNKNOWN_HOSTED: Entry = claude(3, 15, 32_000);
const PAID = new Set(['anthropic', 'openai', 'gemini', 'bedrock', 'vertex']);
/** Unknown models elsewhere (a local server, a gateway): free unless configured, a common window. */
const UNKNOWN_OTHER: Entry = { contextWindow: 128_000, maxOutput: 32_000, price: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, capabilities: { tools: true, images: false, reasoning: false } };

/**
 * What an unknown model of a vendor can do, guessed from its name. Gemini
 * refuses a thinking config from a model that does not think, so only the
 * families known to think (2.5 and later; not Gemma, not 1.x or 2.0) are
 * taken to reason; a new `gemini-3-flash` is, a `gemma-3-27b-it` is not.
 */
const GUESS: Readonly<Record<string, (model: string) => ModelCapabilities>> = {
  gemini: (model) => ({ tools: true, images: true, reasoning: /^(?:models\/)?gemini-(?:2\.5|[3-9]|\d{2})/.test(model) }),
};

export class ModelCatalog {
  /** `overrides[provider][modelId]`: the user's entries (config), applied over the built-in ones. */
  constructor(private readonly overrides: Record<string, Record<string, ModelOverride>> = {}) {}

  /** Everything known about `model` on `provider` (a guess, with `known: false`, when nothing is). */
  info(provider: string, model: string): ModelInfo {
    const base = lookupBuiltin(provider, model);
    const override = this.overrides[provider]?.[model];
    const entry = base ?? guess(provider, model);
    if (override === undefined) return { provider, id: model, ...entry, known: base !== undefined };
    return {
      provider,
      id: model,
      contextWindow: override.contextWindow ?? entry.contextWindow,
      maxOutput: override.maxOutput ?? entry.maxOutput,
      price: { ...entry.price, ...override.price },
      capabilities: { ...entry.capabilities, ...override.capabilities },
      known: true,
    };
  }

  /** Every catalogued model, built-in and configured, as `provider/id`, for listings and completion. */
  list(): ModelInfo[] {
    const out: ModelInfo[] = [];
    const seen = new Set<string>();
    for (const [provider, models] of Object.entries(this.overrides)) {
      for (const id of Object.keys(models)) {
        seen.add(`${provider}/${id}`);
        out.push(this.info(provider, id));
      }
    }
    for (const [provider, models] of Object.entries(BUILTIN)) {
      for (const id of Object.keys(models)) if (!seen.has(`${provider}/${id}`)) out.push(this.info(provider, id));
    }
    return out;
  }
}

function guess(provider: string, model: string): Entry {
  const entry = PAID.has(provider) ? UNKNOWN_HOSTED : UNKNOWN_OTHER;
  const capabilities = GUESS[provider]?.(model);
  return capabilities === undefined ? entry : { ...entry, capabilities };
}

/** Which built-in provider's catalogue lists a bare model name, if exactly one does. */
export function catalogProviderOf(model: string): string | undefined {
  for (const [provider, models] of Object.entries(BUILTIN)) if (longestPrefix(models, model) !== undefined) return provider;
  return undefined;
}

function lookupBuiltin(provider: string, model: string): Entry | undefined {
  const own = BUILTIN[provider];
  const direct = own === undefined ? undefined : longestPrefix(own, model);
  if (direct !== undefined) return direct;
  // Bedrock (`us.anthropic.claude-sonnet-4-5-20250929-v1:0`), Vertex (`claude-sonnet-4-5@20250929`),
  // gateways (`anthropic/claude-sonnet-4.5`, `openai/gpt-5.1`): the vendor's own entry.
  const bare = model
    .replace(/^(?:[a-z]{2}\.)?(?:anthropic|openai|google)[./]/, '')
    .replace(/@.*$/, '')
    .replace(/-v\d+(?::\d+)?$/, '')
    .replace(/(claude-[a-z]+-\d)\.(\d)/, '$1-$2');
  const vendor = MIRRORS[provider] ?? catalogProviderOf(bare);
  const models = vendor === undefined ? undefined : BUILTIN[vendor];
  return models === undefined || (bare === model && vendor === provider) ? undefined : longestPrefix(models, bare);
}

function longestPrefix(models: Record<string, Entry>, model: string): Entry | undefined {
  let best: Entry | undefined;
  let bestLen = -1;
  for (const [prefix, entry] of Object.entries(models)) {
    if (model.startsWith(prefix) && prefix.length > bestLen) {
      best = entry;
      bestLen = prefix.length;
    }
  }
  return best;
}

/** USD for `usage` on a model. */
export function costOf(info: ModelInfo, usage: { inputTokens: number; outputTokens: number; cacheCreationInputTokens: number; cacheReadInputTokens: number }): number {
  const p = info.price;
  return (
    (usage.inputTokens * p.input +
      usage.outputTokens * p.output +
      usage.cacheCreationInputTokens * p.cacheWrite +
      usage.cacheReadInputTokens * p.cacheRead) /
    1_000_000
  );
}
