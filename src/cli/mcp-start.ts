/**
 * When MCP servers start in -p and stream-json: right after the first model
 * request is on its way (or after a short delay when none comes soon), so
 * preparing their sandboxes and spawning them never delays that request.
 * Their tools join the registry as each server connects.
 */
import type { Provider } from '../providers/index.ts';

/** With no request by then (stream-json waiting for input), the servers start anyway. */
const FALLBACK_MS = 100;

export function startAfterFirstRequest(provider: Provider, start: () => void): Provider {
  let started = false;
  const once = () => {
    if (started) return;
    started = true;
    clearTimeout(timer);
    start();
  };
  const timer = setTimeout(once, FALLBACK_MS);
  return {
    name: provider.name,
    stream(request, options) {
      const events = provider.stream(request, options);
      if (started) return events;
      return {
        [Symbol.asyncIterator]() {
          const it = events[Symbol.asyncIterator]();
          let asked = false;
          return {
            next() {
              const event = it.next();
              // The adapter sends the request when first asked for an event; the servers start on the next tick.
              if (!asked) {
                asked = true;
                setTimeout(once, 0);
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
