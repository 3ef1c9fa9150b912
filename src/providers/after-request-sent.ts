/**
 * Work that should wait until a provider's first request is on its way: the
 * adapter sends a request when its stream is first asked for an event, so
 * `then` runs on the tick after that first ask, while the request travels
 * and the model thinks, never before the request's first byte.
 */
import type { Provider } from './types.ts';

/** `provider`, calling `then` once, on the tick after its first stream is first asked for an event. */
export function afterRequestSent(provider: Provider, then: () => void): Provider {
  let asked = false;
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
                setTimeout(then, 0);
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
