/**
 * node:os, loaded on first use: with it and node:child_process (child-process.ts)
 * imported statically, -p's first byte came 6.5 ms later (scripts/bench/startup.ts,
 * 20 interleaved runs, load 2), and a run with $HOME set
 * needs none of it before its first request: the home folder comes from
 * $HOME as os.homedir() itself takes it; the temporary folder and the host
 * name are asked for later.
 */
let module: typeof import('node:os') | undefined;

export function nodeOs(): typeof import('node:os') {
  module ??= import.meta.require('node:os') as typeof import('node:os');
  return module;
}

/** The user's home folder as os.homedir() gives it: $HOME when it is set (node:os not loaded), else the password database's. */
export function homeOf(env: Readonly<Record<string, string | undefined>> = process.env): string {
  return env.HOME || nodeOs().homedir();
}
