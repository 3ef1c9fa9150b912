/** node:child_process, loaded on the first process started: importing it costs every start-up ~1 ms, and a session starts none before its first request. */
let module: typeof import('node:child_process') | undefined;

export function childProcess(): typeof import('node:child_process') {
  module ??= import.meta.require('node:child_process') as typeof import('node:child_process');
  return module;
}
