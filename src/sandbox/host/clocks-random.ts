/** WASI host: wasi:clocks and wasi:random. */
import type { HostContext } from './context.ts';
import { Pollable } from './streams.ts';

/**
 * wasi:clocks and wasi:random. The monotonic clock is `performance.now()` in
 * nanoseconds, so its instants line up with the deadline; a timer pollable
 * sleeps the thread, but never past the deadline (see Pollable.block).
 */

const NS_PER_MS = 1_000_000;

export function createClocks(ctx: HostContext): Record<string, object> {
  return {
    'wasi:clocks/monotonic-clock': {
      now: (): bigint => {
        ctx.checkDeadline();
        return BigInt(Math.floor(performance.now() * NS_PER_MS));
      },
      resolution: (): bigint => 1000n,
      subscribeInstant: (when: bigint): Pollable => new Pollable(Number(when) / NS_PER_MS, ctx),
      subscribeDuration: (d: bigint): Pollable => new Pollable(performance.now() + Number(d) / NS_PER_MS, ctx),
    },
    'wasi:clocks/wall-clock': {
      now: () => {
        ctx.checkDeadline();
        const ms = Date.now();
        return { seconds: BigInt(Math.floor(ms / 1000)), nanoseconds: (ms % 1000) * NS_PER_MS };
      },
      resolution: () => ({ seconds: 0n, nanoseconds: NS_PER_MS }),
    },
  };
}

function randomBytes(len: bigint): Uint8Array {
  const out = new Uint8Array(Number(len));
  // getRandomValues fills at most 64 KiB per call.
  for (let i = 0; i < out.length; i += 65536) crypto.getRandomValues(out.subarray(i, i + 65536));
  return out;
}

function randomU64(): bigint {
  return new BigUint64Array(crypto.getRandomValues(new BigUint64Array(1)).buffer)[0] ?? 0n;
}

export const randomInterfaces: Record<string, object> = {
  'wasi:random/random': { getRandomBytes: randomBytes, getRandomU64: randomU64 },
  'wasi:random/insecure': { getInsecureRandomBytes: randomBytes, getInsecureRandomU64: randomU64 },
  'wasi:random/insecure-seed': { insecureSeed: (): [bigint, bigint] => [randomU64(), randomU64()] },
};
