/**
 * One streaming Responses API request as a neutral event stream, on the
 * `openai` SDK (request, auth, HTTP errors, SSE decoding).
 *
 * Contract (see ../types.ts): never throws once iteration starts; always ends
 * with exactly one `stop` or `error` event carrying the message so far.
 */
import type OpenAI from 'openai';
import { driveStream } from '../drive-stream.ts';
import { openaiRequestError, openSse } from '../openai-client.ts';
import type { ProviderEvent, ProviderRequest, StreamOptions } from '../types.ts';
import { toResponsesBody, type ResponsesOptions } from './convert.ts';
import { ResponsesMapper } from './events.ts';

const API = 'OpenAI API';

export function streamResponses(
  client: OpenAI,
  request: ProviderRequest,
  options: StreamOptions,
  o: ResponsesOptions,
): AsyncGenerator<ProviderEvent, void, undefined> {
  return driveStream({
    api: API,
    options,
    open: (signal, touch) => openSse(client, '/responses', toResponsesBody(request, o), signal, touch),
    requestError: (e) => openaiRequestError(API, client.baseURL, e),
    mapper: new ResponsesMapper(request.model),
  });
}
