/**
 * The one `Provider` the agent talks to, whatever the model: it reads
 * `provider/model` in each request, builds that provider's adapter on first
 * use (load-adapter.ts imports the adapter's module then, so the `openai` and
 * Gemini SDKs are never evaluated on the Anthropic default path), fits the
 * request to the model (output cap, thinking, images, tools; fit-request.ts)
 * and hands it on. A switch of model mid-session, or a fallback, is just a
 * request naming another model; each adapter converts the neutral history
 * for its own wire format.
 */
import { MoatError } from '../util/index.ts';
import { catalogProviderOf, ModelCatalog, type ModelInfo } from './catalog.ts';
import { fitRequest, hasImages } from './fit-request.ts';
import { loadAdapter } from './load-adapter.ts';
import { ZERO_USAGE } from './messages.ts';
import { imagesRefused, omittedNotice, refusesImages } from './model-notices.ts';
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
  /** Where the router tells the user something once (images or tools left out for a model); see `onNotice`. */
  notice?: (message: string) => void;
}

/** Claude Code's model aliases (`--model sonnet`). */
const CLAUDE_ALIASES: Readonly<Record<string, string>> = { sonnet: 'claude-sonnet-4-5', opus: 'claude-opus-4-5', haiku: 'claude-haiku-4-5' };

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
  /**
   * Told each notice once per router (a session): a front end that shows
   * notices its own way (the TUI's transcript) sets it after the router is
   * built; until then they go where `notice` said.
   */
  onNotice: (message: string) => void;
  private readonly said = new Set<string>();
  /** `provider/model` of unknown models whose server refused images: later requests send placeholders. */
  private readonly refusedImages = new Set<string>();

  constructor(o: ModelRouterOptions) {
    this.providers = o.providers ?? { ...BUILTIN_PROVIDERS };
    this.env = o.env;
    this.defaultProvider = o.defaultProvider ?? 'anthropic';
    const overrides: Record<string, NonNullable<ProviderConfig['models']>> = {};
    for (const [name, p] of Object.entries(this.providers)) if (p.models !== undefined) overrides[name] = p.models;
    this.catalog = new ModelCatalog(overrides);
    this.load = o.load ?? loadAdapter;
    this.onNotice = o.notice ?? ((): void => {});
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

  /** The variables that would hold `ref`'s key, when its provider needs one and none is set. */
  keyVariables(ref: string): string[] | undefined {
    const { provider } = this.resolve(ref);
    const config = this.providers[provider];
    if (config === undefined || !config.keyRequired || this.apiKey(provider) !== undefined) return undefined;
    return [config.apiKeyEnv, ...(config.altKeyEnvs ?? [])].filter((n): n is string => n !== undefined);
  }

  /** One line saying which variable to set, when `ref`'s provider needs a key and has none. */
  missingKey(ref: string): string | undefined {
    const names = this.keyVariables(ref);
    if (names === undefined) return undefined;
    const { provider } = this.resolve(ref);
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

  warm(model: string): void {
    let ref: ModelRef;
    try {
      ref = this.resolve(model);
    } catch {
      return; // The request reports the bad name.
    }
    if (this.missingKey(model) !== undefined) return;
    this.adapter(ref.provider).then(
      (p) => p.warm?.(ref.model),
      () => {}, // stream() forgets the failed adapter and reports why.
    );
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
    const key = `${ref.provider}/${ref.model}`;
    const noImages = (info.known && !info.capabilities.images) || this.refusedImages.has(key);
    const fitted = fitRequest(request, ref.model, info, { label: request.model, noImages });
    for (const what of fitted.omitted) this.say(`${what} ${key}`, omittedNotice(what, request.model));
    // A model nobody describes gets the images; if its server refuses them, the user is told why in one line.
    if (info.known || !hasImages(fitted.request.messages)) {
      yield* provider.stream(fitted.request, options);
      return;
    }
    for await (const event of provider.stream(fitted.request, options)) {
      if (event.type === 'error' && refusesImages(event.error)) {
        this.refusedImages.add(key);
        // The error says it all; the placeholders that follow need no notice of their own.
        this.said.add(`images ${key}`);
        yield { ...event, error: imagesRefused(event.error, request.model) };
        return;
      }
      yield event;
    }
  }

  private say(key: string, message: string): void {
    if (this.said.has(key)) return;
    this.said.add(key);
    this.onNotice(message);
  }
}

function failure(error: ProviderError): ProviderEvent {
  return { type: 'error', error, partial: { role: 'assistant', content: [] }, usage: ZERO_USAGE };
}

