/** Messages between the parent and the sandbox child process. */
import type { PolicyRequestInit, PolicyResponse, Refusal } from './network-policy.ts';
import type { Limits, NetworkGrant, Preopen, RunResult } from './types.ts';

/**
 * What the parent and the sandbox child process send each other, as one JSON
 * document each way (bytes as base64). The child is this same program: the
 * compiled binary re-executed with `__sandbox-child`, or `bun child-entry.ts`.
 */

export const CHILD_SUBCOMMAND = '__sandbox-child';

export interface ChildRunMessage {
  mode: 'run';
  cacheDir: string;
  hash: string;
  args: string[];
  env: Record<string, string>;
  stdin: string;
  preopens: Preopen[];
  limits: Limits;
  network?: NetworkGrant;
}

export interface ChildFetchMessage {
  mode: 'fetch';
  url: string;
  method: string;
  headers: [string, string][];
  body?: string;
  grant: NetworkGrant;
}

export type WireRunResult = Omit<RunResult, 'stdout' | 'stderr'> & { stdout: string; stderr: string };
export type WireFetchResult = Refusal | (Omit<PolicyResponse, 'body'> & { body: string });

export const b64 = {
  encode: (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64'),
  decode: (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'base64')),
};

export function toWireResult(r: RunResult): WireRunResult {
  return { ...r, stdout: b64.encode(r.stdout), stderr: b64.encode(r.stderr) };
}

export function fromWireResult(w: WireRunResult): RunResult {
  return { ...w, stdout: b64.decode(w.stdout), stderr: b64.decode(w.stderr) };
}

export function toWireFetch(r: PolicyResponse | Refusal): WireFetchResult {
  return r.ok ? { ...r, body: b64.encode(r.body) } : r;
}

export function fromWireFetch(w: WireFetchResult): PolicyResponse | Refusal {
  return w.ok ? { ...w, body: b64.decode(w.body) } : w;
}

export function fetchInit(m: ChildFetchMessage): PolicyRequestInit {
  return { method: m.method, headers: m.headers, ...(m.body === undefined ? {} : { body: b64.decode(m.body) }) };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** Narrow a parsed child reply; only shape, the child is our own code. */
export function isWireRunResult(v: unknown): v is WireRunResult {
  return isObject(v) && typeof v.exitCode === 'number' && typeof v.stdout === 'string' && typeof v.stderr === 'string';
}

export function isWireFetchResult(v: unknown): v is WireFetchResult {
  return isObject(v) && typeof v.ok === 'boolean';
}

export function isChildMessage(v: unknown): v is ChildRunMessage | ChildFetchMessage {
  return isObject(v) && (v.mode === 'run' || v.mode === 'fetch');
}
