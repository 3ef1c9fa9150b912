/**
 * The agent's retry policy around one provider request. Providers never retry
 * (the SDK's own retries are off): only here, with the whole stream in view,
 * can a failure in the middle of a response be retried as well as one before
 * it.
 *
 * Policy:
 * - `rate_limit`: wait what the server asked (`retryAfterMs`), else back off;
 * - `overloaded`, `server`, `connection`, `stream`, `stalled`: back off
 *   base × 2^n (1 s, 2 s, 4 s, 8 s with the default base);
 * - `auth`, `bad_request`, `aborted`: never retried;
 * - at most `maxRetries` retries; then the last `error` event is the final item.
 *
 * A retried attempt's events were already yielded: the `retry` item tells the
 * consumer to drop what it showed since the attempt began. Old events are
 * never yielded again.
 */
import {
  ZERO_USAGE,
  type Provider,
  type ProviderError,
  type ProviderEvent,
  type ProviderRequest,
} from '../providers/index.ts';

export type RetryItem =
  | { kind: 'event'; event: ProviderEvent }
  /** Attempt `attempt` (1-based count of retries, at most `maxRetries`) starts after `delayMs`; discard the failed attempt's output. */
  | { kind: 'retry'; attempt: number; maxRetries: number; delayMs: number; error: ProviderError };

/** Waits `ms`, returning early when `signal` aborts. Never rejects. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface RetryOptions {
  signal: AbortSignal;
  idleTimeoutMs: number;
  /** First backoff delay; doubles on each retry. */
  baseDelayMs?: number;
  maxRetries?: number;
  sleep?: Sleep;
}

export const DEFAULT_BASE_DELAY_MS = 1000;
export const DEFAULT_MAX_RETRIES = 4;

export async function* streamWithRetry(
  provider: Provider,
  request: ProviderRequest,
  options: RetryOptions,
): AsyncGenerator<RetryItem, void, undefined> {
  const baseDelayMs = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const sleep = options.sleep ?? abortableSleep;
  const { signal, idleTimeoutMs } = options;

  for (let retries = 0; ; retries++) {
    let failure: Extract<ProviderEvent, { type: 'error' }> | undefined;
    let finished = false;
    for await (const event of provider.stream(request, { signal, idleTimeoutMs })) {
      if (event.type === 'error') {
        failure = event;
        break;
      }
      yield { kind: 'event', event };
      if (event.type === 'stop') {
        finished = true;
        break;
      }
    }
    if (finished) return;
    // A provider that ends without a final event broke its contract; say so rather than hang the turn.
    failure ??= {
      type: 'error',
      error: { kind: 'stream', message: `${provider.name} stream ended without a final event.` },
      partial: { role: 'assistant', content: [] },
      usage: ZERO_USAGE,
    };

    const delayMs = retries < maxRetries && !signal.aborted ? retryDelay(failure.error, retries, baseDelayMs) : undefined;
    if (delayMs === undefined) {
      yield { kind: 'event', event: failure };
      return;
    }
    yield { kind: 'retry', attempt: retries + 1, maxRetries, delayMs, error: failure.error };
    await sleep(delayMs, signal);
    if (signal.aborted) {
      // The failed attempt's output was discarded with the retry item: nothing partial is left.
      yield {
        kind: 'event',
        event: {
          type: 'error',
          error: { kind: 'aborted', message: 'Request aborted.' },
          partial: { role: 'assistant', content: [] },
          usage: ZERO_USAGE,
        },
      };
      return;
    }
  }
}

/** How long to wait before retrying after `error`, or undefined when it must not be retried. */
export function retryDelay(error: ProviderError, retriesSoFar: number, baseDelayMs: number): number | undefined {
  const backoff = baseDelayMs * 2 ** retriesSoFar;
  switch (error.kind) {
    case 'rate_limit':
      return error.retryAfterMs ?? backoff;
    case 'overloaded':
    case 'server':
    case 'connection':
    case 'stream':
    case 'stalled':
      return backoff;
    case 'auth':
    case 'bad_request':
    case 'aborted':
      return undefined;
  }
}

export const abortableSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) {
      resolve();
      return;
    }
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
