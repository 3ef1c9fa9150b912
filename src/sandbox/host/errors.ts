/** WASI host errors: exit, limits, and their messages. */
import type { LimitHit } from '../types.ts';

/**
 * Thrown by `wasi:cli/exit`. It is an `Error` on purpose: jco's glue re-throws
 * `Error` instances as traps, so it unwinds the whole guest back to `run()`
 * instead of being lowered into a WIT `result` (a thrown non-Error would be).
 */
export class WasiExit extends Error {
  readonly code: number;
  constructor(code: number) {
    super(`exit ${code}`);
    this.name = 'WasiExit';
    this.code = code;
  }
}

/** Thrown by the host when a limit is hit inside a host call; unwinds the guest like a trap. */
export class LimitError extends Error {
  readonly kind: LimitHit;
  constructor(kind: LimitHit, message: string) {
    super(message);
    this.name = 'LimitError';
    this.kind = kind;
  }
}

/** `1000000000` → `1,000,000,000`: the limit messages are read by people and models. */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** Byte counts as the limit messages show them: `16 MiB`, `512 KiB`, `100 bytes`. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  return `${n} bytes`;
}

/** `5000` → `5 s`, `1500` → `1.5 s`, `250` → `250 ms`. */
export function formatDuration(ms: number): string {
  if (ms >= 1000) return `${Number((ms / 1000).toFixed(2))} s`;
  return `${ms} ms`;
}

export const limitMessages = {
  fuel: (units: number) => `fuel exhausted after ${formatCount(units)} units`,
  memory: (bytes: number) => `memory limit ${formatBytes(bytes)} reached`,
  timeout: (ms: number) => `timed out after ${formatDuration(ms)}`,
  output: (bytes: number) => `output limit ${formatBytes(bytes)} reached`,
} as const;
