/** Work that waits for a provider's first request (src/providers/after-request-sent.ts, request-sent.ts), and what the wrapper must keep of the provider. */
import { expect, test } from 'bun:test';
import { afterRequestSent, type Provider, type ProviderEvent } from '../../src/providers/index.ts';
import { startAfterFirstRequest } from '../../src/cli/mcp-start.ts';
import { announcingFetch, whenRequestSent } from '../../src/providers/request-sent.ts';

/** A provider whose stream notes when it is asked for its first event, and which notes warm calls. */
function noting(log: string[]): Provider {
  return {
    name: 'fake',
    warm: (model) => log.push(`warm ${model}`),
    stream() {
      return {
        [Symbol.asyncIterator]() {
          let done = false;
          return {
            next(): Promise<IteratorResult<ProviderEvent>> {
              log.push('asked');
              const r: IteratorResult<ProviderEvent> = done ? { done: true, value: undefined } : { done: false, value: { type: 'text_delta', index: 0, text: 'x' } as unknown as ProviderEvent };
              done = true;
              return Promise.resolve(r);
            },
          };
        },
      };
    },
  };
}

const request = { model: 'm', system: '', messages: [], tools: [], maxTokens: 10 };

test('then runs once, on a tick after the first event when the adapter never says it sent a request', async () => {
  const log: string[] = [];
  const p = afterRequestSent(noting(log), () => log.push('then'));
  const events = p.stream(request, { signal: new AbortController().signal, idleTimeoutMs: 1000 })[Symbol.asyncIterator]();
  await Bun.sleep(5);
  expect(log).toEqual([]);
  const first = events.next();
  expect(log).toEqual(['asked']);
  await first;
  await Bun.sleep(5);
  expect(log).toEqual(['asked', 'then']);
  for await (const _ of p.stream(request, { signal: new AbortController().signal, idleTimeoutMs: 1000 })) void _;
  await Bun.sleep(5);
  expect(log.filter((l) => l === 'then')).toHaveLength(1);
});

test("the provider's warm reaches through both wrappers (the MCP start-up one used to drop it, so -p never warmed its SDK)", () => {
  const log: string[] = [];
  const wrapped = startAfterFirstRequest(afterRequestSent(noting(log), () => {}), () => {});
  expect(wrapped.warm).toBeDefined();
  wrapped.warm?.('claude-x');
  expect(log).toEqual(['warm claude-x']);
});

/**
 * A provider that, like an SDK, prepares its request over macrotasks (its
 * module loading, its headers) before handing it to fetch, then yields.
 */
function preparing(log: string[], fetched: (input: string, init?: RequestInit) => Promise<Response>): Provider {
  return {
    name: 'preparing',
    async *stream() {
      log.push('asked');
      await Bun.sleep(10);
      log.push('fetch');
      await fetched('http://127.0.0.1:1/v1/messages', { method: 'POST' });
      yield { type: 'text_delta', index: 0, text: 'x' } as unknown as ProviderEvent;
    },
  };
}

test('then waits through the adapter preparing its request, and runs on the tick after the request is handed to fetch', async () => {
  const log: string[] = [];
  const fetched = announcingFetch(async () => {
    log.push('fetched');
    await Bun.sleep(20);
    return new Response('');
  });
  const p = afterRequestSent(preparing(log, fetched), () => log.push('then'));
  const done = (async () => {
    for await (const _ of p.stream(request, { signal: new AbortController().signal, idleTimeoutMs: 1000 })) log.push('event');
  })();
  await Bun.sleep(5);
  // Asked, still preparing: the tick after the first ask has long passed, and then has not run.
  expect(log).toEqual(['asked']);
  await Bun.sleep(15);
  // Handed to fetch, the response not yet come: then has run, before any event.
  expect(log).toEqual(['asked', 'fetch', 'fetched', 'then']);
  await done;
  expect(log).toEqual(['asked', 'fetch', 'fetched', 'then', 'event']);
});

test('a request that fails before it is sent still runs then, after the failure', async () => {
  const log: string[] = [];
  const failing: Provider = {
    name: 'failing',
    async *stream() {
      await Bun.sleep(5);
      throw new Error('no key');
    },
  };
  const p = afterRequestSent(failing, () => log.push('then'));
  const it = p.stream(request, { signal: new AbortController().signal, idleTimeoutMs: 1000 })[Symbol.asyncIterator]();
  await expect(it.next()).rejects.toThrow('no key');
  await Bun.sleep(5);
  expect(log).toEqual(['then']);
});

test('announcingFetch tells each waiting listener once, after the inner fetch was called, and passes its result through', async () => {
  const log: string[] = [];
  const fetched = announcingFetch(async (input) => {
    log.push(`fetch ${String(input)}`);
    return new Response('body');
  });
  whenRequestSent(() => log.push('a'));
  whenRequestSent(() => log.push('b'));
  expect(await (await fetched('http://x/1')).text()).toBe('body');
  await fetched('http://x/2');
  expect(log).toEqual(['fetch http://x/1', 'a', 'b', 'fetch http://x/2']);
});
