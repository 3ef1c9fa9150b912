/**
 * The part every adapter's stream shares, written once for the adapters that
 * came after Anthropic's (whose stream.ts is the model for this one): one
 * AbortController pulled by the caller's signal and by the idle watchdog,
 * the watchdog paused while the consumer holds an event, every neutral event
 * folded through the accumulator, and every way of failing turned into the
 * one final `error` event carrying the message so far.
 *
 * Contract (see types.ts): never throws once iteration starts; always ends
 * with exactly one `stop` or `error` event.
 */
import { AccumulateError, accumulate, createAccumulator, messageOf, type AccumulatorState } from './accumulate.ts';
import { abortedError, bodyFailure, protocolFailure, stalledError, truncatedFailure, type AbortCause } from './failure.ts';
import { IdleWatchdog } from './idle-watchdog.ts';
import type { StopReason, Usage } from './messages.ts';
import type { ProviderError, ProviderEvent, StreamOptions } from './types.ts';

/** What one wire frame means. */
export interface MappedFrame {
  events: ProviderEvent[];
  /** The message is complete: the driver closes with a `stop` event for this reason. */
  stop?: StopReason;
  /** An in-band error (an `error` event in the body): the stream ends with it. */
  error?: ProviderError;
}

/** Wire frames → neutral events. Stateful in what the wire leaves implicit (open blocks, usage so far). */
export interface FrameMapper<F> {
  readonly usage: Usage;
  /** Throws when a frame of a known kind cannot be read; the driver reports a malformed stream. */
  map(frame: F): MappedFrame;
  /** The body ended without a terminal frame: finish when the wire allows it, else return no `stop`. */
  end(): MappedFrame;
}

export interface DriveOptions<F> {
  /** How the API is named in messages ("OpenAI API"). */
  api: string;
  options: StreamOptions;
  /**
   * Sends the request and returns the body's frames. Rejects (with the SDK's
   * own error) when no body comes; must call `touch` for every chunk of bytes.
   */
  open(signal: AbortSignal, touch: () => void): Promise<AsyncIterable<F>>;
  /** A rejection of `open` (HTTP status, no connection), when neither the caller nor the watchdog aborted. */
  requestError(e: unknown): ProviderError;
  /** An exception while iterating the frames that is the API speaking rather than the connection failing. */
  iterationError?(e: unknown): ProviderError | undefined;
  mapper: FrameMapper<F>;
}

export async function* driveStream<F>(o: DriveOptions<F>): AsyncGenerator<ProviderEvent, void, undefined> {
  const { mapper, options, api } = o;
  let state: AccumulatorState = createAccumulator();
  const fail = (error: ProviderError): ProviderEvent => ({ type: 'error', error, partial: messageOf(state), usage: mapper.usage });

  if (options.signal.aborted) {
    yield fail(abortedError());
    return;
  }
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
  let iterator: AsyncIterator<F> | undefined;
  /** The answer reached its stop: what is left of the body is its end, which the iterator's return releases. */
  let answered = false;
  const byCause = (): ProviderError | undefined =>
    cause === 'caller' ? abortedError() : cause === 'idle' ? stalledError(api, options.idleTimeoutMs) : undefined;

  try {
    let frames: AsyncIterable<F>;
    try {
      frames = await o.open(controller.signal, () => watchdog.touch());
    } catch (e) {
      yield fail(byCause() ?? o.requestError(e));
      return;
    }
    watchdog.touch();
    iterator = frames[Symbol.asyncIterator]();
    try {
      let mapped: MappedFrame | undefined;
      for (;;) {
        if (mapped === undefined) {
          const next = await iterator.next();
          if (next.done === true) {
            const aborted = byCause();
            if (aborted !== undefined) {
              yield fail(aborted);
              return;
            }
            mapped = mapper.end();
            // A copy: a mapper may hand back one shared frame for "nothing here".
            if (mapped.stop === undefined && mapped.error === undefined) mapped = { ...mapped, error: truncatedFailure(api) };
          } else {
            try {
              mapped = mapper.map(next.value);
            } catch (e) {
              yield fail(protocolFailure(api, e instanceof Error ? e.message : String(e)));
              return;
            }
          }
        }
        // Inline rather than a generator per frame: this loop runs for every event of every stream.
        for (const event of mapped.events) {
          state = accumulate(state, event);
          // The consumer's time between pulls is not the server's silence.
          watchdog.pause();
          yield event;
          watchdog.resume();
        }
        if (mapped.error !== undefined) {
          yield fail(mapped.error);
          return;
        }
        if (mapped.stop !== undefined) {
          const stop: ProviderEvent = { type: 'stop', reason: mapped.stop, message: messageOf(state), usage: mapper.usage };
          state = accumulate(state, stop);
          answered = true;
          yield stop;
          return;
        }
        mapped = undefined;
      }
    } catch (e) {
      if (e instanceof AccumulateError) {
        yield fail(protocolFailure(api, e.message));
        return;
      }
      yield fail(byCause() ?? o.iterationError?.(e) ?? bodyFailure(api, e, null, options.idleTimeoutMs));
    }
  } finally {
    watchdog.stop();
    options.signal.removeEventListener('abort', onCallerAbort);
    // Releases the connection when the consumer stopped early. Not after the stop: aborting then did nothing but cost
    // the first tool call's turn-around ~1.4 ms (a CPU profile of a fresh process; the signal's listeners and its error).
    if (!answered) controller.abort();
    try {
      await iterator?.return?.();
    } catch {
      // The body was already torn down by the abort; nothing is left to release.
    }
  }
}

/** The response body with every chunk reported to `touch` (the idle watchdog). */
export function tappedBody(response: Response, touch: () => void): Response {
  if (response.body === null) return response;
  // A stream pulling from the body's reader, not pipeThrough a TransformStream: the pipe's machinery (Bun's streams are
  // JavaScript) showed in CPU profiles of the first tool call's turn-around (turnaround.ts, cold at once, 4 interleaved runs: lower in each, by 0.1-2 ms).
  const reader = response.body.getReader();
  const tapped = new ReadableStream<Uint8Array>({
    async pull(out) {
      const next = await reader.read();
      if (next.done) return out.close();
      touch();
      out.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(tapped, { status: response.status, headers: response.headers });
}
