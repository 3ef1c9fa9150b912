/**
 * How a provider is reached: its wire format, endpoint, key variable and
 * headers. The built-in entries make `--model ollama/qwen3-coder` or
 * `--model openai/gpt-5.1` work with no config; `[providers.<name>]` in
 * config.toml overrides any field of them or adds new providers.
 */
import type { ModelOverride } from './catalog.ts';

export const PROVIDER_TYPES = ['anthropic', 'openai-responses', 'openai-chat', 'gemini', 'bedrock', 'vertex'] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];

export interface ProviderConfig {
  type: ProviderType;
  /** Anthropic and Gemini: without the API version; OpenAI-style: with `/v1`. Bedrock and Vertex: their SDK's default. */
  baseUrl?: string;
  /** The environment variable holding the key; undefined means none is needed (local servers, cloud credentials). */
  apiKeyEnv?: string;
  /** Other variables tried when `apiKeyEnv` is empty. */
  altKeyEnvs?: string[];
  /** Whether a key is required; local servers take requests without one. */
  keyRequired: boolean;
  headers?: Record<string, string>;
  /** Seconds to wait for the response to start. */
  timeoutS?: number;
  models?: Record<string, ModelOverride>;
  /** Where `moat models` asks for the list of models, if the API has one (OpenAI-style `GET /models`). */
  listsModels: boolean;
  /**
   * Chat Completions servers stricter than OpenAI about tool calls. `mistral`: ids of exactly 9 letters and
   * digits (others' ids are mapped, the same way in a call and its result) and an assistant turn between
   * tool results and the next user message; Mistral answers 400 otherwise.
   */
  toolCallRules?: ToolCallRules;
}

export type ToolCallRules = 'mistral';

export const BUILTIN_PROVIDERS: Readonly<Record<string, ProviderConfig>> = {
  anthropic: { type: 'anthropic', baseUrl: 'https://api.anthropic.com', apiKeyEnv: 'ANTHROPIC_API_KEY', keyRequired: true, listsModels: true },
  openai: { type: 'openai-responses', baseUrl: 'https://api.openai.com/v1', apiKeyEnv: 'OPENAI_API_KEY', keyRequired: true, listsModels: true },
  gemini: {
    type: 'gemini',
    baseUrl: 'https://generativelanguage.googleapis.com',
    apiKeyEnv: 'GEMINI_API_KEY',
    altKeyEnvs: ['GOOGLE_API_KEY'],
    keyRequired: true,
    listsModels: true,
  },
  openrouter: { type: 'openai-chat', baseUrl: 'https://openrouter.ai/api/v1', apiKeyEnv: 'OPENROUTER_API_KEY', keyRequired: true, listsModels: true },
  deepseek: { type: 'openai-chat', baseUrl: 'https://api.deepseek.com/v1', apiKeyEnv: 'DEEPSEEK_API_KEY', keyRequired: true, listsModels: true },
  groq: { type: 'openai-chat', baseUrl: 'https://api.groq.com/openai/v1', apiKeyEnv: 'GROQ_API_KEY', keyRequired: true, listsModels: true },
  mistral: { type: 'openai-chat', baseUrl: 'https://api.mistral.ai/v1', apiKeyEnv: 'MISTRAL_API_KEY', keyRequired: true, listsModels: true, toolCallRules: 'mistral' },
  together: { type: 'openai-chat', baseUrl: 'https://api.together.xyz/v1', apiKeyEnv: 'TOGETHER_API_KEY', keyRequired: true, listsModels: true },
  ollama: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:11434/v1', apiKeyEnv: 'OLLAMA_API_KEY', keyRequired: false, listsModels: true },
  lmstudio: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:1234/v1', apiKeyEnv: 'LMSTUDIO_API_KEY', keyRequired: false, listsModels: true },
  llamacpp: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:8080/v1', apiKeyEnv: 'LLAMACPP_API_KEY', keyRequired: false, listsModels: true },
  vllm: { type: 'openai-chat', baseUrl: 'http://127.0.0.1:8000/v1', apiKeyEnv: 'VLLM_API_KEY', keyRequired: false, listsModels: true },
  // Credentials come from the cloud's usual environment (AWS_* / a profile; gcloud application default).
  bedrock: { type: 'bedrock', keyRequired: false, listsModels: false },
  vertex: { type: 'vertex', keyRequired: false, listsModels: false },
};

/** Built-ins with the user's entries laid over them, field by field. */
export function mergeProviders(user: Record<string, Partial<ProviderConfig>>): Record<string, ProviderConfig> {
  const merged: Record<string, ProviderConfig> = { ...BUILTIN_PROVIDERS };
  for (const [name, entry] of Object.entries(user)) {
    const base = BUILTIN_PROVIDERS[name];
    const type = entry.type ?? base?.type ?? 'openai-chat';
    merged[name] = {
      ...(base ?? { keyRequired: false, listsModels: type !== 'bedrock' && type !== 'vertex' }),
      ...entry,
      type,
      // A provider the user adds with a key variable needs that key; one without is taken to be local.
      keyRequired: entry.keyRequired ?? base?.keyRequired ?? entry.apiKeyEnv !== undefined,
      models: { ...base?.models, ...entry.models },
    } as ProviderConfig;
  }
  return merged;
}
