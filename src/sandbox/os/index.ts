/** The OS sandbox for processes moat starts (bash, `!cmd`, hooks, MCP stdio servers): bubblewrap, seccomp and a filtering proxy. */
export * from './types.ts';
export { sandboxSupport, sandboxInstalled, type SandboxSupport } from './support.ts';
export { DEFAULT_SCRUB_ENV, ALWAYS_SCRUBBED, scrubEnv, isScrubbed } from './env-scrub.ts';
export { connectionAllowed, type ConnectionVerdict } from './network-match.ts';
export { builtinDenyRead } from './deny-list.ts';
export { PROTECTED_IN_ROOT } from './deny-list.ts';
