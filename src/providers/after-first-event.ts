/**
 * Work that must not delay a run's first model request (starting MCP
 * servers: cli/mcp-start.ts) runs on the tick after the provider's first
 * stream yields its first event, or fails: by then the request is on its way
 * and the model is answering. (The session's own work waits less: its records
 * go once the request is sent, Store.later; its tools get ready while the
 * model answers, agent/prepare-tools.ts.)
 */
import type { Provider } from './types.ts';

/** `provider`, calling `then` once, on the tick after its first stream's first event (or failure). */
export function afterFirstEvent(provider: Provider, then: () => void): Provider {
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
                const fire = (): void => void setTimeout(then, 0);
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
