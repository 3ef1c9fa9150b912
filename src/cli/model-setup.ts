/**
 * Builds the model router from the configuration: the built-in providers,
 * the user's `[providers.<name>]` tables laid over them, Anthropic's endpoint
 * from `api_base_url` / ANTHROPIC_BASE_URL, and keys read from the variables
 * each provider names. Also checks, before anything starts, that the chosen
 * model and its fallbacks name known providers, that the model has a key, and
 * warns of a fallback without one.
 */
import type { AgentSettings } from '../agent/index.ts';
import { displayPath, folderTrusted, moatPaths, type ConfigSource, type Env, type LoadedConfig, type ProviderSettings } from '../config/index.ts';
import { BUILTIN_PROVIDERS, mergeProviders, ModelRouter, type ModelOverride, type ProviderConfig } from '../providers/index.ts';
import { MoatError } from '../util/index.ts';
import { err } from './write-out.ts';

/** moat's warning lines on stderr; the router's notices too, unless a front end sets `router.onNotice` to show them its own way. */
const warnLine = (line: string): void => err(`moat: ${line}\n`);

export function modelRouter(loaded: LoadedConfig, env: Env): ModelRouter {
  const user: Record<string, Partial<ProviderConfig>> = {};
  for (const [name, p] of Object.entries(loaded.config.providers)) user[name] = providerConfig(p);
  const anthropicUrl = loaded.config.apiBaseUrl;
  if (anthropicUrl !== undefined) user['anthropic'] = { ...BUILTIN_PROVIDERS['anthropic'], ...user['anthropic'], baseUrl: user['anthropic']?.baseUrl ?? anthropicUrl };
  return new ModelRouter({ providers: mergeProviders(user), env, notice: warnLine });
}

function providerConfig(p: ProviderSettings): Partial<ProviderConfig> {
  const out: Partial<ProviderConfig> = {};
  if (p.type !== undefined) out.type = p.type;
  if (p.baseUrl !== undefined) out.baseUrl = p.baseUrl;
  if (p.apiKeyEnv !== undefined) out.apiKeyEnv = p.apiKeyEnv;
  if (p.headers !== undefined) out.headers = p.headers;
  if (p.timeoutS !== undefined) out.timeoutS = p.timeoutS;
  if (p.toolCallRules !== undefined) out.toolCallRules = p.toolCallRules;
  if (p.models !== undefined) {
    const models: Record<string, ModelOverride> = {};
    for (const [id, m] of Object.entries(p.models)) models[id] = m;
    out.models = models;
  }
  return out;
}

/** Routers already warned about their fallbacks: a skill's model checks the settings a second time. */
const warned = new WeakSet<ModelRouter>();

/**
 * Fails early, in one line, on a model or fallback that names no known
 * provider, and on a chosen model whose provider needs a key that is not set.
 * A fallback without its key is one warning line naming the variable: the run
 * can still go well, but a turn that falls back to it would fail then, at the
 * worst moment, and a missing key never falls further.
 */
export function checkModels(router: ModelRouter, settings: Pick<AgentSettings, 'model' | 'fallbackModels'>, warn: (line: string) => void = warnLine): void {
  for (const model of [settings.model, ...(settings.fallbackModels ?? [])]) router.resolve(model);
  const missing = router.missingKey(settings.model);
  if (missing !== undefined) throw new MoatError('no_api_key', missing);
  if (warned.has(router)) return;
  warned.add(router);
  for (const model of new Set(settings.fallbackModels ?? [])) {
    const variables = router.keyVariables(model);
    if (variables !== undefined) warn(`fallback model ${model} has no API key: set ${variables.join(' or ')}, or a turn that falls back to it will fail`);
  }
}

function sourceName(source: ConfigSource | undefined, cwd: string, env: Env): string {
  switch (source?.kind) {
    case 'file':
      return `${displayPath(source.path, cwd, env)}:${source.line}`;
    case 'env':
    case 'flag':
      return source.name;
    default:
      return 'the configuration';
  }
}

/**
 * One line saying where `model`'s requests go when that is not its
 * provider's own endpoint, in a trusted folder (whose settings may reach the
 * environment); undefined otherwise. A project's files cannot set an
 * endpoint at all (load-config.ts refuses them).
 */
export function endpointNotice(loaded: LoadedConfig, router: ModelRouter, model: string, cwd: string, env: Env): string | undefined {
  if (!folderTrusted(loaded.projectRoot, moatPaths(env).configDir)) return undefined;
  const { provider } = router.resolve(model);
  const own = loaded.config.providers[provider]?.baseUrl;
  const url = own ?? (provider === 'anthropic' ? loaded.config.apiBaseUrl : undefined);
  const standard = BUILTIN_PROVIDERS[provider]?.baseUrl;
  if (url === undefined || url === standard) return undefined;
  const from = own !== undefined ? `[providers.${provider}] base_url in ${sourceName(loaded.sources.providers, cwd, env)}` : sourceName(loaded.sources.apiBaseUrl, cwd, env);
  return `requests for ${model} go to ${url} (set by ${from}), not ${standard ?? `${provider}'s own endpoint`}`;
}
