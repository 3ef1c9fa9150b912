/** The OpenAI Responses API adapter: the default for OpenAI's own GPT-5 and codex models. */
import { createOpenAIClient, type OpenAIClientOptions } from '../openai-client.ts';
import type { Provider } from '../types.ts';
import { streamResponses } from './stream.ts';

export function createOpenAIResponsesProvider(
  name: string,
  options: OpenAIClientOptions,
  /** Whether a model reasons (takes `reasoning`, returns encrypted reasoning items). */
  reasons: (model: string) => boolean,
): Provider {
  const client = createOpenAIClient(options);
  return {
    name,
    stream: (request, streamOptions) => streamResponses(client, request, streamOptions, { reasoning: reasons(request.model) }),
  };
}
