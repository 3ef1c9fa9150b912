/**
 * Asks a provider which models it serves, through its list endpoint
 * (`GET /models` for OpenAI-style servers, `/v1/models` for Anthropic,
 * `/v1beta/models` for Gemini), with a short timeout: `moat models` shows
 * what is reachable without waiting on a server that is not running. A plain
 * GET needs none of the SDKs, so listing loads none of them.
 */
import { describe, isRecord, oneLine } from './failure.ts';
import type { ModelRouter } from './model-router.ts';

export type ModelListing =
  | { provider: string; status: 'listed'; models: string[] }
  /** The provider has no list endpoint (Bedrock, Vertex) or needs a key that is not set. */
  | { provider: string; status: 'skipped'; reason: string }
  | { provider: string; status: 'unreachable'; reason: string };

export async function listModels(router: ModelRouter, provider: string, timeoutMs: number): Promise<ModelListing> {
  const config = router.providers[provider];
  if (config === undefined) return { provider, status: 'skipped', reason: 'unknown provider' };
  if (!config.listsModels || config.baseUrl === undefined) return { provider, status: 'skipped', reason: 'no model list endpoint' };
  const key = router.apiKey(provider);
  if (config.keyRequired && key === undefined) {
    return { provider, status: 'skipped', reason: `no key (set ${config.apiKeyEnv ?? 'its key variable'})` };
  }
  const base = config.baseUrl.replace(/\/+$/, '');
  const headers: Record<string, string> = { ...config.headers };
  let url: string;
  switch (config.type) {
    case 'anthropic':
      url = `${base}/v1/models?limit=100`;
      if (key !== undefined) headers['x-api-key'] = key;
      headers['anthropic-version'] = '2023-06-01';
      break;
    case 'gemini':
      url = `${base}/v1beta/models?pageSize=200`;
      if (key !== undefined) headers['x-goog-api-key'] = key;
      break;
    default:
      url = `${base}/models`;
      if (key !== undefined) headers['authorization'] = `Bearer ${key}`;
  }
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return { provider, status: 'unreachable', reason: `HTTP ${response.status} from ${url}` };
    const body: unknown = await response.json();
    return { provider, status: 'listed', models: idsOf(body).sort() };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const reason =
      e instanceof Error && e.name === 'TimeoutError'
        ? `no answer within ${timeoutMs} ms`
        : code === 'ConnectionRefused' || code === 'ECONNREFUSED'
          ? 'nothing listening'
          : describe(e);
    return { provider, status: 'unreachable', reason: oneLine(`${reason} (${url})`) };
  }
}

/** Model ids from `{data: [{id}]}` (OpenAI, Anthropic) or `{models: [{name: "models/…"}]}` (Gemini). */
function idsOf(body: unknown): string[] {
  if (!isRecord(body)) return [];
  const list = Array.isArray(body['data']) ? body['data'] : Array.isArray(body['models']) ? body['models'] : [];
  const ids: string[] = [];
  for (const m of list) {
    if (!isRecord(m)) continue;
    const id = typeof m['id'] === 'string' ? m['id'] : typeof m['name'] === 'string' ? m['name'].replace(/^models\//, '') : undefined;
    if (id !== undefined) ids.push(id);
  }
  return ids;
}
