/**
 * One streaming `generateContent` request as a neutral event stream, on the
 * `@google/genai` SDK (request, key, SSE decoding, errors in the body). The
 * SDK's own retries and automatic continuation stay off: the agent's retry
 * policy decides.
 *
 * Contract (see ../types.ts): never throws once iteration starts; always ends
 * with exactly one `stop` or `error` event carrying the message so far.
 */
import type { GenerateContentResponse, GoogleGenAI } from '@google/genai';
import { driveStream } from '../drive-stream.ts';
import type { ProviderEvent, ProviderRequest, StreamOptions } from '../types.ts';
import { toGeminiParams, type GeminiOptions } from './convert.ts';
import { geminiIterationError, geminiRequestError } from './errors.ts';
import { GeminiMapper } from './events.ts';

export function streamGemini(
  client: GoogleGenAI,
  baseURL: string,
  request: ProviderRequest,
  options: StreamOptions,
  o: GeminiOptions,
): AsyncGenerator<ProviderEvent, void, undefined> {
  return driveStream<GenerateContentResponse>({
    api: 'Gemini API',
    options,
    open: async (signal, touch) => touching(await client.models.generateContentStream(toGeminiParams(request, signal, o)), touch),
    requestError: (e) => geminiRequestError(e, baseURL),
    iterationError: geminiIterationError,
    mapper: new GeminiMapper(request.model),
  });
}

async function* touching<T>(chunks: AsyncGenerator<T>, touch: () => void): AsyncGenerator<T> {
  for await (const chunk of chunks) {
    touch();
    yield chunk;
  }
}
