/**
 * Builds the adapter of one configured provider. Every module but Anthropic's own is imported here, on first
 * use, so the `openai`, Gemini and cloud SDKs are never evaluated on the Anthropic default path (Anthropic's
 * waits for its first request: anthropic-on-demand.ts). Each one imported statically instead delayed the
 * default `-p`'s first byte (scripts/bench/seam-paths.ts, 30 runs, load 5-6): OpenAI Chat +12 ms wall and CPU,
 * Responses +7 ms wall, +10 ms CPU, Gemini +31/+33, Bedrock +33/+22, Vertex +33/+29, all five +71/+51.
 */
import { MoatError } from '../util/index.ts';
import { createAnthropicProvider } from './anthropic-on-demand.ts';
import type { ModelRouter } from './model-router.ts';
import type { ProviderConfig } from './provider-config.ts';
import type { Provider } from './types.ts';

export async function loadAdapter(name: string, config: ProviderConfig, router: ModelRouter): Promise<Provider> {
  const apiKey = router.apiKey(name);
  const timeoutMs = config.timeoutS === undefined ? undefined : Math.round(config.timeoutS * 1000);
  const common = {
    ...(config.headers === undefined ? {} : { headers: config.headers }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
  // Reasoning models take a reasoning / thinking config; others refuse it (OpenAI with 400, Gemini too).
  const reasons = (model: string): boolean => router.catalog.info(name, model).capabilities.reasoning;
  switch (config.type) {
    case 'anthropic':
      return createAnthropicProvider({ apiKey: apiKey ?? '', baseURL: config.baseUrl, ...common });
    case 'openai-chat': {
      const { createOpenAIChatProvider } = await import('./openai-chat/index.ts');
      const wire = config.toolCallRules === undefined ? {} : { toolCallRules: config.toolCallRules };
      return createOpenAIChatProvider(name, { apiKey, baseURL: required(config, name), ...common }, wire);
    }
    case 'openai-responses': {
      const { createOpenAIResponsesProvider } = await import('./openai-responses/index.ts');
      return createOpenAIResponsesProvider(name, { apiKey, baseURL: required(config, name), ...common }, reasons);
    }
    case 'gemini': {
      const { createGeminiProvider } = await import('./gemini/index.ts');
      return createGeminiProvider(name, { apiKey, baseURL: required(config, name), ...common }, reasons);
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
