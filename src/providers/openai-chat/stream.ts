/**
 * One streaming Chat Completions request as a neutral event stream: the SDK
 * builds and authenticates the request and maps HTTP errors; its own SSE
 * decoder reads the body; the chunk mapper does the rest.
 *
 * Contract (see ../types.ts): never throws once iteration starts; always ends
 * with exactly one `stop` or `error` event carrying the message so far.
 */
import type OpenAI from 'openai';
import { driveStream } from '../drive-stream.ts';
import { COMPATIBLE_API } from '../failure.ts';
import { openaiRequestError, openSse } from '../openai-client.ts';
import type { ProviderEvent, ProviderRequest, StreamOptions } from '../types.ts';
import { toChatBody, type ChatOptions } from './convert.ts';
import { ChunkMapper } from './events.ts';

const API = COMPATIBLE_API;

export function streamChat(
  client: OpenAI,
  request: ProviderRequest,
  options: StreamOptions,
  o: ChatOptions = {},
): AsyncGenerator<ProviderEvent, void, undefined> {
  return driveStream({
    api: API,
    options,
    open: (signal, touch) => openSse(client, '/chat/completions', toChatBody(request, o), signal, touch),
    requestError: (e) => openaiRequestError(API, client.baseURL, e),
    mapper: new ChunkMapper(request.model),
  });
}
