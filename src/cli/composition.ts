/**
 * What the composition root can be told by the program that embeds it, never
 * by the environment, a flag or a config file: the shipped entry (src/main.ts)
 * sets nothing. The end-to-end tests build their own entry
 * (test/support/moat-test-entry.ts) that sets these, so `dist/moat` itself has
 * no switch that weakens a boundary.
 */
export interface CompositionOptions {
  /** Granted hosts (WASM tools, sandboxed processes) may be private or loopback addresses: tests serve on 127.0.0.1. */
  allowPrivateNetwork?: boolean;
  /** The TUI throws once it has started: the crash path's end-to-end test. */
  injectCrash?: boolean;
  /** The retry backoff's base (1000 ms otherwise): the retry tests wait 20 ms, not seconds. */
  retryBaseMs?: number;
}

let current: CompositionOptions = {};

export function setCompositionOptions(options: CompositionOptions): void {
  current = { ...options };
}

export function compositionOptions(): Readonly<CompositionOptions> {
  return current;
}
