/** Stands in for the WASI preview2 shim inside jco's own transpiler. */
import { createHost, HostContext } from './host/index.ts';

/**
 * Stands in for `@bytecodealliance/preview2-shim` inside jco's own
 * transpiler (js-component-bindgen, itself a component). preview2-shim starts
 * a worker thread and calls `process.exit`; neither works inside
 * `bun build --compile`, and neither is wanted. The transpiler only needs
 * stdio and random, so it gets our in-thread host with nothing granted.
 *
 * jco-patch.ts rewrites the transpiler's `@bytecodealliance/preview2-shim/*`
 * imports to this module; the names below are those imports' names.
 */

const host = createHost({
  args: ['jco-bindgen'],
  env: {},
  preopens: [],
  ctx: new HostContext({ fuel: Number.POSITIVE_INFINITY, memoryBytes: Number.POSITIVE_INFINITY, timeoutMs: Number.POSITIVE_INFINITY, maxOutputBytes: 1 << 20 }),
});

function iface(name: string): object {
  const found = host.imports[name];
  if (found === undefined) throw new Error(`bindgen shim: host lacks ${name}`);
  return found;
}

export const environment = iface('wasi:cli/environment');
export const exit = iface('wasi:cli/exit');
export const stdin = iface('wasi:cli/stdin');
export const stdout = iface('wasi:cli/stdout');
export const stderr = iface('wasi:cli/stderr');
export const terminalInput = iface('wasi:cli/terminal-input');
export const terminalOutput = iface('wasi:cli/terminal-output');
export const terminalStdin = iface('wasi:cli/terminal-stdin');
export const terminalStdout = iface('wasi:cli/terminal-stdout');
export const terminalStderr = iface('wasi:cli/terminal-stderr');
export const preopens = iface('wasi:filesystem/preopens');
export const types = iface('wasi:filesystem/types');
export const error = iface('wasi:io/error');
export const streams = iface('wasi:io/streams');
export const random = iface('wasi:random/random');
export const insecure = iface('wasi:random/insecure');
export const insecureSeed = iface('wasi:random/insecure-seed');
export const monotonicClock = iface('wasi:clocks/monotonic-clock');
export const wallClock = iface('wasi:clocks/wall-clock');
export const poll = iface('wasi:io/poll');
