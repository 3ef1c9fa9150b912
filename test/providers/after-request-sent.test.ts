/** Work that waits for a provider's first request (src/providers/after-request-sent.ts), and what the wrapper must keep of the provider. */
import { expect, test } from 'bun:test';
import { afterRequestSent, type Provider, type ProviderEvent } from '../../src/providers/index.ts';
import { startAfterFirstRequest } from '../../src/cli/mcp-start.ts';

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

test('then runs once, on a tick after the first stream is first asked for an event, never before', async () => {
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
