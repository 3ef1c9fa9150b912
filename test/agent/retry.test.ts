import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { retryDelay, streamWithRetry, type RetryItem, type RetryOptions } from '../../src/agent/retry.ts';
import {
  createAnthropicProvider,
  type Provider,
  type ProviderErrorKind,
  type ProviderRequest,
} from '../../src/providers/index.ts';
import { httpError, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';

let server: FakeAnthropic;
let provider: Provider;

beforeAll(async () => {
  server = await startFakeAnthropic();
  provider = createAnthropicProvider({ apiKey: 'sk-fake', baseURL: server.url });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  expect(server.remaining()).toBe(0);
});

const REQUEST: ProviderRequest = {
  model: 'claude-test',
  system: '',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  maxTokens: 100,
};

async function run(options: Partial<RetryOptions> = {}): Promise<{ items: RetryItem[]; ms: number }> {
  const items: RetryItem[] = [];
  const t0 = performance.now();
  for await (const item of streamWithRetry(provider, REQUEST, {
    signal: new AbortController().signal,
    idleTimeoutMs: 5000,
    baseDelayMs: 10,
    ...options,
  })) {
    items.push(item);
  }
  return { items, ms: performance.now() - t0 };
}

/** A compact trace: event types, `retry(kind,delay)` for retries, `error(kind)` for the final failure. */
function trace(items: RetryItem[]): string[] {
  return items.map((i) => {
    if (i.kind === 'retry') return `retry#${i.attempt}(${i.error.kind},${i.delayMs})`;
    if (i.event.type === 'error') return `error(${i.event.error.kind})`;
    if (i.event.type === 'text_delta') return `text(${i.event.text})`;
    return i.event.type;
  });
}

const OK = ['message_start', 'text_start', 'text(ok)', 'block_end', 'usage', 'stop'];

describe('streamWithRetry', () => {
  test('success passes every event through once', async () => {
    server.script(reply().text('ok'));
    const { items } = await run();
    expect(trace(items)).toEqual(OK);
    expect(server.requests).toHaveLength(1);
  });

  test('429 with retry-after: 1 waits about one second', async () => {
    server.script(httpError(429, { retryAfter: 1 }), reply().text('ok'));
    const { items, ms } = await run();
    expect(trace(items)).toEqual(['retry#1(rate_limit,1000)', ...OK]);
    expect(items[0]).toMatchObject({
      kind: 'retry',
      error: { kind: 'rate_limit', status: 429, retryAfterMs: 1000 },
    });
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(3000);
  });

  test('429 without retry-after falls back to backoff', async () => {
    server.script(httpError(429), httpError(429), reply().text('ok'));
    const { items } = await run({ baseDelayMs: 15 });
    expect(trace(items)).toEqual(['retry#1(rate_limit,15)', 'retry#2(rate_limit,30)', ...OK]);
  });

  test('529 twice, then success, with exponential backoff', async () => {
    server.script(httpError(529), httpError(529), reply().text('ok'));
    const { items } = await run({ baseDelayMs: 20 });
    expect(trace(items)).toEqual(['retry#1(overloaded,20)', 'retry#2(overloaded,40)', ...OK]);
    expect(server.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '0', '0']);
  });

  test('the real 1 s base delay', async () => {
    server.script(httpError(529), reply().text('ok'));
    const { items, ms } = await run({ baseDelayMs: undefined });
    expect(trace(items)).toEqual(['retry#1(overloaded,1000)', ...OK]);
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(3000);
  });

  test('5xx: four retries, then the last error is the final item', async () => {
    server.script(httpError(500), httpError(502), httpError(503), httpError(500), httpError(503, { message: 'last one' }));
    const { items } = await run();
    expect(trace(items)).toEqual([
      'retry#1(server,10)',
      'retry#2(server,20)',
      'retry#3(server,40)',
      'retry#4(server,80)',
      'error(server)',
    ]);
    expect(items.at(-1)).toMatchObject({ kind: 'event', event: { error: { message: 'Anthropic API error 503: last one' } } });
    expect(server.requests).toHaveLength(5);
  });

  for (const status of [400, 401, 403, 404]) {
    test(`${status} fails at once`, async () => {
      server.script(httpError(status));
      const { items } = await run();
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({ kind: 'event', event: { type: 'error', error: { status } } });
      expect(server.requests).toHaveLength(1);
    });
  }

  test('mid-stream error: a retry item, then a clean second attempt, nothing repeated', async () => {
    server.script(reply().text('partial').streamError('overloaded_error'), reply().text('ok'));
    const { items } = await run();
    expect(trace(items)).toEqual(['message_start', 'text_start', 'text(partial)', 'retry#1(overloaded,10)', ...OK]);
  });

  test('drop and stall mid-stream are retried', async () => {
    server.script(reply().text('a').drop(), reply().text('b').stall(), reply().text('ok'));
    const { items } = await run({ idleTimeoutMs: 200 });
    expect(trace(items)).toEqual([
      'message_start',
      'text_start',
      'text(a)',
      'retry#1(stream,10)',
      'message_start',
      'text_start',
      'text(b)',
      'retry#2(stalled,20)',
      ...OK,
    ]);
  });

  test('an abort during the backoff sleep ends at once', async () => {
    server.script(httpError(529));
    const controller = new AbortController();
    const items: RetryItem[] = [];
    const t0 = performance.now();
    for await (const item of streamWithRetry(provider, REQUEST, {
      signal: controller.signal,
      idleTimeoutMs: 5000,
      baseDelayMs: 10_000,
    })) {
      items.push(item);
      if (item.kind === 'retry') setTimeout(() => controller.abort(), 50);
    }
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(trace(items)).toEqual(['retry#1(overloaded,10000)', 'error(aborted)']);
    expect(items[1]).toEqual({
      kind: 'event',
      event: {
        type: 'error',
        error: { kind: 'aborted', message: 'Request aborted.' },
        partial: { role: 'assistant', content: [] },
        usage: { inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
      },
    });
    expect(server.requests).toHaveLength(1);
  });

  test('an abort mid-stream is never retried', async () => {
    server.script(reply().text('partial').stall());
    const controller = new AbortController();
    const items: RetryItem[] = [];
    for await (const item of streamWithRetry(provider, REQUEST, { signal: controller.signal, idleTimeoutMs: 5000 })) {
      items.push(item);
      if (item.kind === 'event' && item.event.type === 'text_delta') controller.abort();
    }
    expect(trace(items)).toEqual(['message_start', 'text_start', 'text(partial)', 'error(aborted)']);
    expect(server.requests).toHaveLength(1);
  });

  test('an injected sleep receives the delays', async () => {
    server.script(httpError(429, { retryAfter: 30 }), httpError(529), reply().text('ok'));
    const slept: number[] = [];
    const { items, ms } = await run({
      baseDelayMs: 1000,
      sleep: async (delay) => {
        slept.push(delay);
      },
    });
    expect(slept).toEqual([30_000, 2000]);
    expect(trace(items)).toEqual(['retry#1(rate_limit,30000)', 'retry#2(overloaded,2000)', ...OK]);
    expect(ms).toBeLessThan(2000);
  });

  test('maxRetries bounds the attempts', async () => {
    server.script(httpError(529), httpError(529));
    const { items } = await run({ maxRetries: 1 });
    expect(trace(items)).toEqual(['retry#1(overloaded,10)', 'error(overloaded)']);
  });
});

describe('retryDelay', () => {
  const cases: [ProviderErrorKind, number | undefined][] = [
    ['rate_limit', 4000],
    ['overloaded', 4000],
    ['server', 4000],
    ['connection', 4000],
    ['stream', 4000],
    ['stalled', 4000],
    ['auth', undefined],
    ['bad_request', undefined],
    ['aborted', undefined],
  ];
  test('third retry of each kind with the default base', () => {
    expect(cases.map(([kind]) => [kind, retryDelay({ kind, message: 'x' }, 2, 1000)])).toEqual(cases);
  });

  test('retry-after wins over backoff for rate limits', () => {
    expect(retryDelay({ kind: 'rate_limit', message: 'x', retryAfterMs: 0 }, 3, 1000)).toBe(0);
  });
});
