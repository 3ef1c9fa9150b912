/**
 * One streaming request to the Messages API, as a neutral event stream.
 *
 * We ask the SDK only for the raw `Response` (it still builds the request,
 * authenticates and turns HTTP error statuses into typed errors) and read the
 * SSE body ourselves with the SDK's own parser. That gives us every byte, so
 * the idle watchdog also sees `ping` events, which the SDK's typed stream
 * swallows; `driveStream` then turns an SSE `error` event or a cut connection
 * into an ordinary final `error` event instead of an exception.
 *
 * Contract (see ../types.ts): never throws once iteration starts; always ends
 * with exactly one `stop` or `error` event carrying the message so far.
 */
import type { BaseAnthropic } from '@anthropic-ai/sdk/client';
import { Stream, type ServerSentEvent } from '@anthropic-ai/sdk/core/streaming';
import { driveStream, tappedBody } from '../drive-stream.ts';
import type { ProviderEvent, ProviderRequest, StreamOptions } from '../types.ts';
import { toAnthropicParams } from './convert.ts';
import { anthropicBody } from './request-body.ts';
import { requestError } from './errors.ts';
import { WireMapper } from './events.ts';

const API = 'Anthropic API';

/**
 * `body`: `bytes` sends the body as written by request-body.ts (Anthropic's
 * own API); `params` hands the SDK the object, for the Bedrock and Vertex
 * clients, which move `model` out of the body into the path.
 */
export function streamMessages(
  client: BaseAnthropic,
  request: ProviderRequest,
  options: StreamOptions,
  body: 'bytes' | 'params' = 'params',
): AsyncGenerator<ProviderEvent, void, undefined> {
  let requestId: string | undefined;
  return driveStream({
    api: API,
    options,
    open: async (signal, touch) => {
      // `post` rather than `messages.create`: the latter may console.warn about
      // deprecated models, which would scribble over the TUI.
      // As bytes (request-body.ts) the SDK sends the body as it is, with the content type given here.
      const sent = body === 'bytes' ? { body: anthropicBody(request), headers: { 'content-type': 'application/json' } } : { body: toAnthropicParams(request) };
      const response = await client.post<unknown>('/v1/messages', { ...sent, stream: true, signal, maxRetries: 0 }).asResponse();
      requestId = response.headers.get('request-id') ?? undefined;
      // No body: no frames, so the driver reports a response that ended before the message was complete.
      if (response.body === null) return NO_FRAMES;
      const controller = new AbortController();
      signal.addEventListener('abort', () => controller.abort(), { once: true });
      return Stream.rawEvents(tappedBody(response, touch), controller);
    },
    requestError: (e) => requestError(e, client.baseURL),
    mapper: new WireMapper(() => requestId),
  });
}

const NO_FRAMES: AsyncIterable<ServerSentEvent> = {
  [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true, value: undefined }) }),
};
