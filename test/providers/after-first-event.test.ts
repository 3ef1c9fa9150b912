/** Start-up's seam after the first request (src/providers/after-first-event.ts): when `then` runs, and what the wrapper keeps of the provider. */
import { expect, test } from 'bun:test';
import { afterFirstEvent, type Provider, type ProviderEvent } from '../../src/providers/index.ts';
import { startAfterFirstRequest } from '../../src/cli/mcp-start.ts';

/** A provider whose first event (or failure) comes when the test says so, noting each step. */
function gated(log: string[], fail = false) {
  const { promise: gate, resolve: open } = Promise.withResolvers<void>();
  const provider: Provider = {
    name: 'gated',
    warm: (model) => log.push(`warm ${model}`),
    async *stream() {
      log.push('asked');
      await gate;
      if (fail) throw new Error('no key');
      log.push('event');
      yield { type: 'text_delta', index: 0, text: 'x' } as unknown as ProviderEvent;
    },
  };
  return { provider, open };
}

const request = { model: 'm', system: '', messages: [], tools: [], maxTokens: 10 };
const options = () => ({ signal: new AbortController().signal, idleTimeoutMs: 1000 });

test('then runs once, after the first stream yields its first event, never while the request is being prepared', async () => {
  const log: string[] = [];
  const { promise: ran, resolve } = Promise.withResolvers<void>();
  const { provider, open } = gated(log);
  const p = afterFirstEvent(provider, () => {
    log.push('then');
    resolve();
  });
  const it = p.stream(request, options())[Symbol.asyncIterator]();
  const first = it.next();
  // Macrotasks pass while the adapter prepares: then waits for the event.
  await new Promise((r) => setTimeout(r, 0));
  await new Promise((r) => setTimeout(r, 0));
  expect(log).toEqual(['asked']);
  open();
  await first;
  await ran;
  expect(log).toEqual(['asked', 'event', 'then']);
  // A second stream does not run it again.
  const { provider: again, open: openAgain } = gated(log);
  openAgain();
  for await (const _ of afterFirstEvent(again, () => log.push('never')).stream(request, options())) void _;
  for await (const _ of p.stream(request, options())) void _;
  expect(log.filter((l) => l === 'then')).toHaveLength(1);
});

test('a request that fails before any event still runs then, after the failure', async () => {
  const log: string[] = [];
  const { promise: ran, resolve } = Promise.withResolvers<void>();
  const { provider, open } = gated(log, true);
  const it = afterFirstEvent(provider, () => {
    log.push('then');
    resolve();
  })
    .stream(request, options())
    [Symbol.asyncIterator]();
  const first = it.next();
  open();
  await expect(first).rejects.toThrow('no key');
  await ran;
  expect(log).toEqual(['asked', 'then']);
});

test("the provider's warm reaches through both wrappers (the MCP start-up one used to drop it, so -p never warmed its SDK)", () => {
  const log: string[] = [];
  const wrapped = startAfterFirstRequest(afterFirstEvent(gated(log).provider, () => {}), () => {});
  expect(wrapped.warm).toBeDefined();
  wrapped.warm?.('claude-x');
  expect(log).toEqual(['warm claude-x']);
});
