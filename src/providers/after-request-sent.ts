/**
 * Work that should wait until a provider's first request is on its way: `then`
 * runs on the tick after the adapter hands that request to fetch
 * (request-sent.ts), while the request travels and the model thinks, never
 * before the request's first byte. An adapter whose SDK cannot be given a
 * fetch, or a request that fails before it is sent, runs `then` after the
 * stream's first event instead.
 */
import { whenRequestSent } from './request-sent.ts';
import type { Provider } from './types.ts';

/** `provider`, calling `then` once, on the tick after its first stream's request is sent (or its first event arrives). */
export function afterRequestSent(provider: Provider, then: () => void): Provider {
  let asked = false;
  let fired = false;
  const fire = (): void => {
    if (fired) return;
    fired = true;
    setTimeout(then, 0);
  };
  return {
    name: provider.name,
    ...(provider.warm === undefined ? {} : { warm: (model: string) => provider.warm?.(model) }),
    stream(request, options) {
      const events = provider.stream(request, options);
      if (asked) return events;
      return {
        [Symbol.asyncIterator]() {
          const it = events[Symbol.asyncIterator]();
          return {
            next() {
              const event = it.next();
              if (!asked) {
                asked = true;
                whenRequestSent(fire);
                event.then(fire, fire);
              }
              return event;
            },
            ...(it.return === undefined ? {} : { return: (v?: unknown) => it.return!(v) }),
          };
        },
      };
    },
  };
}
