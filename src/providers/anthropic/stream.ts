/**
 * One streaming request to the Messages API, as a neutral event stream.
 *
 * We ask the SDK only for the raw `Response` (it still builds the request,
 * authenticates and turns HTTP error statuses into typed errors) and read the
 * SSE body ourselves with the SDK's own parser. That gives us every byte, so
 * the idle watchdog also sees `ping` events, which the SDK's typed stream
 * swallows, and it lets us treat an SSE `error` event or a cut connection as
 * an ordinary final `error` event instead of an exception.
 *
 * Contract (see ../types.ts): never throws once iteration starts; always ends
 * with exactly one `stop` or `error` event carrying the message so far.
 */
import type { BaseAnthropic } from '@anthropic-ai/sdk/client';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import { Stream } from '@anthropic-ai/sdk/core/streaming';
import { AccumulateError, accumulate, createAccumulator, messageOf, type AccumulatorState } from '../accumulate.ts';
import { IdleWatchdog } from '../idle-watchdog.ts';
import type { ProviderError, ProviderEvent, ProviderRequest, StreamOptions } from '../types.ts';
import { toAnthropicParams } from './convert.ts';
import {
  abortedError,
  bodyError,
  protocolError,
  requestError,
  sseError,
  truncatedError,
  type AbortCause,
} from './errors.ts';
import { WireMapper } from './events.ts';

export async function* streamMessages(
  client: BaseAnthropic,
  request: ProviderRequest,
  options: StreamOptions,
): AsyncGenerator<ProviderEvent, void, undefined> {
  const mapper = new WireMapper();
  let state: AccumulatorState = createAccumulator();
  const fail = (error: ProviderError): ProviderEvent => ({
    type: 'error',
    error,
    partial: messageOf(state),
    usage: mapper.usage,
  });

  if (options.signal.aborted) {
    yield fail(abortedError());
    return;
  }

  // One controller for the HTTP request; the caller's signal and the watchdog both pull it.
  const controller = new AbortController();
  let cause: AbortCause = null;
  const onCallerAbort = (): void => {
    cause ??= 'caller';
    controller.abort();
  };
  options.signal.addEventListener('abort', onCallerAbort, { once: true });
  const watchdog = new IdleWatchdog(options.idleTimeoutMs, () => {
    cause ??= 'idle';
    controller.abort();
  });

  try {
    let response: Response;
    try {
      // `post` rather than `messages.create`: the latter may console.warn about
      // deprecated models, which would scribble over the TUI.
      response = await client
        .post<unknown>('/v1/messages', {
          body: toAnthropicParams(request),
          stream: true,
          signal: controller.signal,
          maxRetries: 0,
        })
        .asResponse();
    } catch (e) {
      yield fail(requestError(e, cause, options.idleTimeoutMs, client.baseURL));
      return;
    }
    const requestId = response.headers.get('request-id') ?? undefined;
    if (response.body === null) {
      yield fail(truncatedError());
      return;
    }
    watchdog.touch();
    const tapped = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, out) {
          watchdog.touch();
          out.enqueue(chunk);
        },
      }),
    );

    try {
      for await (const sse of Stream.rawEvents(new Response(tapped), controller)) {
        if (sse.event === 'ping') continue;
        if (sse.event === 'error') {
          yield fail(sseError(parseJson(sse.data), requestId));
          return;
        }
        const data = parseJson(sse.data);
        if (!isWireEvent(data)) {
          if (data === undefined) {
            yield fail(protocolError(`invalid JSON in a ${sse.event ?? 'message'} event`));
            return;
          }
          continue; // An event type newer than this adapter: the API may add them at any time.
        }
        let mapped;
        try {
          mapped = mapper.map(data);
        } catch (e) {
          // A known event type with fields missing (a broken proxy, a truncated JSON object).
          yield fail(protocolError(`unreadable ${data.type} event (${e instanceof Error ? e.message : String(e)})`));
          return;
        }
        for (const event of mapped.events) {
          state = accumulate(state, event);
          // The consumer's time between pulls is not the server's silence.
          watchdog.pause();
          yield event;
          watchdog.resume();
        }
        if (mapped.done) {
          const stop: ProviderEvent = {
            type: 'stop',
            reason: mapper.stopReason,
            message: messageOf(state),
            usage: mapper.usage,
          };
          state = accumulate(state, stop);
          yield stop;
          return;
        }
      }
    } catch (e) {
      if (e instanceof AccumulateError) {
        yield fail(protocolError(e.message));
        return;
      }
      yield fail(bodyError(e, cause, options.idleTimeoutMs));
      return;
    }
    // The SDK's parser ends quietly when the body is aborted, so check who did it.
    if (cause === 'caller' || cause === 'idle') {
      yield fail(bodyError(undefined, cause, options.idleTimeoutMs));
      return;
    }
    yield fail(truncatedError());
  } finally {
    watchdog.stop();
    options.signal.removeEventListener('abort', onCallerAbort);
    // Releases the connection when the consumer stopped early; a no-op after a complete read.
    controller.abort();
  }
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return undefined;
  }
}

const WIRE_TYPES = new Set([
  'message_start',
  'message_delta',
  'message_stop',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
]);

function isWireEvent(data: unknown): data is RawMessageStreamEvent {
  return (
    typeof data === 'object' &&
    data !== null &&
    'type' in data &&
    typeof data.type === 'string' &&
    WIRE_TYPES.has(data.type)
  );
}
