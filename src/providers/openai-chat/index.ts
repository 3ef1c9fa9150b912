/** The Chat Completions adapter: every OpenAI-compatible server (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter…). */
import { createOpenAIClient, type OpenAIClientOptions } from '../openai-client.ts';
import type { Provider } from '../types.ts';
import type { ChatOptions } from './convert.ts';
import { streamChat } from './stream.ts';

export function createOpenAIChatProvider(name: string, options: OpenAIClientOptions, wire: ChatOptions = {}): Provider {
  const client = createOpenAIClient(options);
  return { name, stream: (request, streamOptions) => streamChat(client, request, streamOptions, wire) };
}
