/**
 * Builds the model router from the configuration: the built-in providers,
 * the user's `[providers.<name>]` tables laid over them, Anthropic's endpoint
 * from `api_base_url` / ANTHROPIC_BASE_URL, and keys read from the variables
 * each provider names. Also checks, before anything starts, that the chosen
 * model and its fallbacks name known providers and that the model has a key.
 */
import type { AgentSettings } from '../agent/index.ts';
import type { Env, LoadedConfig, ProviderSettings } from '../config/index.ts';
import { BUILTIN_PROVIDERS, mergeProviders, ModelRouter, type ModelOverride, type ProviderConfig } from '../providers/index.ts';
import { MoatError } from '../util/index.ts';

export function modelRouter(loaded: LoadedConfig, env: Env): ModelRouter {
  const user: Record<string, Partial<ProviderConfig>> = {};
  for (const [name, p] of Object.entries(loaded.config.providers)) user[name] = providerConfig(p);
  const anthropicUrl = loaded.config.apiBaseUrl;
  if (anthropicUrl !== undefined) user['anthropic'] = { ...BUILTIN_PROVIDERS['anthropic'], ...user['anthropic'], baseUrl: user['anthropic']?.baseUrl ?? anthropicUrl };
  return new ModelRouter({ providers: mergeProviders(user), env });
}

function providerConfig(p: ProviderSettings): Partial<ProviderConfig> {
  const out: Partial<ProviderConfig> = {};
  if (p.type !== undefined) out.type = p.type;
  if (p.baseUrl !== undefined) out.baseUrl = p.baseUrl;
  if (p.apiKeyEnv !== undefined) out.apiKeyEnv = p.apiKeyEnv;
  if (p.headers !== undefined) out.headers = p.headers;
  if (p.timeoutS !== undefined) out.timeoutS = p.timeoutS;
  if (p.models !== undefined) {
    const models: Record<string, ModelOverride> = {};
    for (const [id, m] of Object.entries(p.models)) models[id] = m;
    out.models = models;
  }
  return out;
}

/**
 * Fails early, in one line, on a model or fallback that names no known
 * provider, and on a chosen model whose provider needs a key that is not set.
 */
export function checkModels(router: ModelRouter, settings: Pick<AgentSettings, 'model' | 'fallbackModels'>): void {
  for (const model of [settings.model, ...(settings.fallbackModels ?? [])]) router.resolve(model);
  const missing = router.missingKey(settings.model);
  if (missing !== undefined) throw new MoatError('no_api_key', missing);
}
