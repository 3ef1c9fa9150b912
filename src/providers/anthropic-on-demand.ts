/**
 * Anthropic's adapter behind a Provider that imports it on its first request:
 * the SDK is the largest module moat loads (~680 KB with its resources), and
 * nothing before the first request needs it, so the TUI draws its first frame
 * without it and `-p` evaluates it while the request is being prepared.
 * Imported statically it made the TUI's first frame 14.7 ms later
 * (scripts/bench/tui-startup.ts, 15 interleaved runs, load 3); it saves
 * `-p`'s first byte nothing (startup.ts: static was 2.3 ms sooner, in the noise).
 */
import type { AnthropicProviderOptions } from './anthropic/index.ts';
import type { Provider, ProviderEvent, ProviderRequest, StreamOptions } from './types.ts';

export type { AnthropicProviderOptions };

export function createAnthropicProvider(options: AnthropicProviderOptions): Provider {
  let adapter: Promise<Provider> | undefined;
  const load = (): Promise<Provider> => (adapter ??= import('./anthropic/index.ts').then((m) => m.createAnthropicProvider(options)));
  return {
    name: 'anthropic',
    async *stream(request: ProviderRequest, streamOptions: StreamOptions): AsyncIterable<ProviderEvent> {
      yield* (await load()).stream(request, streamOptions);
    },
    warm() {
      // The request that follows awaits the same promise and reports its failure.
      load().catch(() => {});
    },
  };
}
