/**
 * node:child_process, loaded on the first process started: a session starts none before its first request.
 * With it and node:os (node-os.ts) imported statically, -p's first byte came 6.5 ms later, 5.2 ms more CPU
 * (scripts/bench/startup.ts, 20 interleaved runs, load 2).
 */
let module: typeof import('node:child_process') | undefined;

export function childProcess(): typeof import('node:child_process') {
  module ??= import.meta.require('node:child_process') as typeof import('node:child_process');
  return module;
}
