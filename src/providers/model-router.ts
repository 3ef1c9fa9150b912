/**
 * The one `Provider` the agent talks to, whatever the model: it reads
 * `provider/model` in each request, builds that provider's adapter on first
 * use (importing the adapter's module then, so the `openai` and Gemini SDKs
 * are never evaluated on the Anthropic default path), fits the request to the
 * model (output cap, thinking, images) and hands it on. A switch of model
 * mid-session, or a fallback, is just a request naming another model; each
 * adapter converts the neutral history for its own wire format.
 */
import { MoatError } from '../util/index.ts';
import { createAnthropicProvider } from './anthropic/index.ts';
import { catalogProviderOf, ModelCatalog, type ModelInfo } from './catalog.ts';
import { ZERO_USAGE } from './messages.ts';
import { BUILTIN_PROVIDERS, type ProviderConfig } from './provider-config.ts';
import type { Provider, ProviderError, ProviderEvent, ProviderRequest, StreamOptions } from './types.ts';

export interface ModelRef {
  provider: string;
  /** The model id as its API knows it. */
  model: string;
}

export interface ModelRouterOptions {
  providers?: Record<string, ProviderConfig>;
  env: Record<string, string | undefined>;
  /** The provider of a bare model name no catalogue knows (`anthropic`). */
  defaultProvider?: string;
  /** Makes adapters; tests and benchmarks can count or replace them. */
  load?: (name: string, config: ProviderConfig, router: ModelRouter) => Promise<Provider>;
}

/** Claude Code's model aliases (`--model sonnet`). */
const CLAUDE_ALIASES: Readonly<Record<string, string>> = { sonnet: 'claude-sonnet-4-5', opus: 'claude-opus-4-5', haiku: 'claude-haiku-4-5' };

/** The smallest thinking budget the APIs take. */
const MIN_THINKING = 1024;

export class ModelRouter implements Provider {
  readonly name = 'moat';
  readonly providers: Record<string, ProviderConfig>;
  readonly catalog: ModelCatalog;
  private readonly env: Record<string, string | undefined>;

  /** The environment the router was given (cloud adapters read their region and project from it). */
  get environment(): Readonly<Record<string, string | undefined>> {
    return this.env;
  }
  private readonly defaultProvider: string;
  private readonly adapters = new Map<string, Promise<Provider>>();
  private readonly load: NonNullable<ModelRouterOptions['load']>;

  constructor(o: ModelRouterOptions) {
    this.providers = o.providers ?? { ...BUILTIN_PROVIDERS };
    this.env = o.env;
    this.defaultProvider = o.defaultProvider ?? 'anthropic';
    const overrides: Record<string, NonNullable<ProviderConfig['models']>> = {};
    for (const [name, p] of Object.entries(this.providers)) if (p.models !== undefined) overrides[name] = p.models;
    this.catalog = new ModelCatalog(overrides);
    this.load = o.load ?? loadAdapter;
  }

  /**
   * `openai/gpt-5.1` → openai + gpt-5.1; `openrouter/anthropic/claude-sonnet-4.5`
   * → openrouter + the rest. A bare name goes to the provider whose catalogue
   * lists it, else to the default (a bare Claude name means Anthropic).
   */
  resolve(ref: string): ModelRef {
    const slash = ref.indexOf('/');
    if (slash > 0) {
      const provider = ref.slice(0, slash);
      const model = ref.slice(slash + 1);
      if (this.providers[provider] !== undefined) {
        if (model === '') throw new MoatError('usage', `model "${ref}": no model name after "${provider}/"`);
        return { provider, model };
      }
      throw new MoatError(
        'usage',
        `model "${ref}": unknown provider "${provider}" (known: ${Object.keys(this.providers).sort().join(', ')}; add others as [providers.${provider}] in config.toml)`,
      );
    }
    if (ref.startsWith('claude-')) return { provider: 'anthropic', model: ref };
    const alias = CLAUDE_ALIASES[ref];
    if (alias !== undefined) return { provider: 'anthropic', model: alias };
    const listed = catalogProviderOf(ref);
    return { provider: listed !== undefined && this.providers[listed] !== undefined ? listed : this.defaultProvider, model: ref };
  }

  info(ref: string): ModelInfo {
    const { provider, model } = this.resolve(ref);
    return this.catalog.info(provider, model);
  }

  /** The API key of a provider, from its variable(s); undefined when none is set. */
  apiKey(provider: string): string | undefined {
    const config = this.providers[provider];
    if (config === undefined) return undefined;
    for (const name of [config.apiKeyEnv, ...(config.altKeyEnvs ?? [])]) {
      const value = name === undefined ? undefined : this.env[name];
      if (value !== undefined && value !== '') return value;
    }
    return undefined;
  }

  /** One line saying which variable to set, when `ref`'s provider needs a key and has none. */
  missingKey(ref: string): string | undefined {
    const { provider } = this.resolve(ref);
    const config = this.providers[provider];
    if (config === undefined || !config.keyRequired || this.apiKey(provider) !== undefined) return undefined;
    const names = [config.apiKeyEnv, ...(config.altKeyEnvs ?? [])].filter((n): n is string => n !== undefined);
    const extra = provider === 'anthropic' ? ' (and ANTHROPIC_BASE_URL for a proxy or gateway)' : '';
    return `no API key for ${provider}: set ${names.join(' or ')}${extra}, or run a local model with no key: --model ollama/<name>`;
  }

  /** The adapter for a provider, built (and its module imported) on first use. */
  adapter(provider: string): Promise<Provider> {
    let adapter = this.adapters.get(provider);
    if (adapter === undefined) {
      const config = this.providers[provider];
      if (config === undefined) return Promise.reject(new MoatError('usage', `unknown provider "${provider}"`));
      adapter = this.load(provider, config, this);
      this.adapters.set(provider, adapter);
    }
    return adapter;
  }

  async *stream(request: ProviderRequest, options: StreamOptions): AsyncGenerator<ProviderEvent, void, undefined> {
    let ref: ModelRef | undefined;
    let provider: Provider;
    try {
      ref = this.resolve(request.model);
      const missing = this.missingKey(request.model);
      if (missing !== undefined) {
        yield failure({ kind: 'auth', message: missing });
        return;
      }
      provider = await this.adapter(ref.provider);
    } catch (e) {
      // A bad name, or an SDK that refused its settings (Vertex without a region): final, not retried.
      if (ref !== undefined) this.adapters.delete(ref.provider);
      yield failure({ kind: 'bad_request', message: e instanceof Error ? e.message : String(e) });
      return;
    }
    const info = this.catalog.info(ref.provider, ref.model);
    if (info.known && !info.capabilities.images && hasImages(request)) {
      yield failure({ kind: 'bad_request', message: `${request.model} does not take images; remove them or choose another model (/model)` });
      return;
    }
    yield* provider.stream(fitRequest(request, ref.model, info), options);
  }
}

/** The request as this model can take it: its own id, its output cap, thinking only where it reasons. */
export function fitRequest(request: ProviderRequest, model: string, info: ModelInfo): ProviderRequest {
  const maxTokens = Math.min(request.maxTokens, info.maxOutput);
  const fitted: ProviderRequest = { ...request, model, maxTokens };
  delete fitted.thinkingBudget;
  if (request.thinkingBudget !== undefined && info.capabilities.reasoning) {
    // Anthropic refuses a budget that does not leave room for the answer.
    const budget = Math.min(request.thinkingBudget, maxTokens - MIN_THINKING);
    if (budget >= MIN_THINKING) fitted.thinkingBudget = budget;
  }
  return fitted;
}

function hasImages(request: ProviderRequest): boolean {
  return request.messages.some((m) =>
    m.content.some((p) => p.type === 'image' || (p.type === 'tool_result' && p.content.some((c) => c.type === 'image'))),
  );
}

function failure(error: ProviderError): ProviderEvent {
  return { type: 'error', error, partial: { role: 'assistant', content: [] }, usage: ZERO_USAGE };
}

/** Builds an adapter; every module but Anthropic's own is imported here, on first use. */
async function loadAdapter(name: string, config: ProviderConfig, router: ModelRouter): Promise<Provider> {
  const apiKey = router.apiKey(name);
  const timeoutMs = config.timeoutS === undefined ? undefined : Math.round(config.timeoutS * 1000);
  const common = {
    ...(config.headers === undefined ? {} : { headers: config.headers }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
  switch (config.type) {
    case 'anthropic':
      return createAnthropicProvider({ apiKey: apiKey ?? '', baseURL: config.baseUrl, ...common });
    case 'openai-chat': {
      const { createOpenAIChatProvider } = await import('./openai-chat/index.ts');
      return createOpenAIChatProvider(name, { apiKey, baseURL: required(config, name), ...common });
    }
    case 'openai-responses': {
      const { createOpenAIResponsesProvider } = await import('./openai-responses/index.ts');
      return createOpenAIResponsesProvider(name, { apiKey, baseURL: required(config, name), ...common }, (model) => router.catalog.info(name, model).capabilities.reasoning);
    }
    case 'gemini': {
      const { createGeminiProvider } = await import('./gemini/index.ts');
      return createGeminiProvider(name, { apiKey, baseURL: required(config, name), ...common });
    }
    case 'bedrock': {
      const { createBedrockProvider } = await import('./anthropic/bedrock.ts');
      const env = router.environment;
      return createBedrockProvider(name, {
        ...(config.baseUrl === undefined ? {} : { baseURL: config.baseUrl }),
        ...defined({ region: env['AWS_REGION'] ?? env['AWS_DEFAULT_REGION'], apiKey: apiKey ?? env['AWS_BEARER_TOKEN_BEDROCK'] }),
        ...common,
      });
    }
    case 'vertex': {
      const { createVertexProvider } = await import('./anthropic/vertex.ts');
      const env = router.environment;
      return createVertexProvider(name, {
        ...(config.baseUrl === undefined ? {} : { baseURL: config.baseUrl }),
        ...defined({ region: env['CLOUD_ML_REGION'], projectId: env['ANTHROPIC_VERTEX_PROJECT_ID'] }),
        ...common,
      });
    }
  }
}

function defined<T extends Record<string, string | undefined>>(o: T): { [K in keyof T]?: string } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as { [K in keyof T]?: string };
}

function required(config: ProviderConfig, name: string): string {
  if (config.baseUrl === undefined) throw new MoatError('config', `[providers.${name}] needs base_url`);
  return config.baseUrl;
}
