/**
 * The WebAssembly sandbox: moat's own WASI 0.2 host for jco-transpiled
 * components, with fuel, memory, output and deadline limits, a child-process
 * backstop, the transpile cache, and the network policy shared with web_fetch.
 */
export * from './types.ts';
export { loadComponent, loadCached, sha256, type LoadOptions } from './load.ts';
export { runComponent, forgetLoaded } from './run.ts';
export { warmStats } from './warm.ts';
export { readEmbedded } from './embedded-file.ts';
export { checkImports, interfaceName, ALLOWED_INTERFACES } from './import-policy.ts';
export { runChildMain } from './child-main.ts';
export { CHILD_SUBCOMMAND } from './child-protocol.ts';
export { TRAP_EXIT_CODE } from './run-in-process.ts';
export { KILLED_EXIT_CODE } from './child-runner.ts';
export { limitMessages } from './host/errors.ts';
export {
  checkUrl,
  checkAddress,
  resolveAndCheck,
  policyFetch,
  DEFAULT_MAX_REQUEST_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_NETWORK_TIMEOUT_MS,
  type CheckedUrl,
  type ResolvedUrl,
  type Refusal,
  type RefusalCode,
  type PolicyRequestInit,
  type PolicyResponse,
} from './network-policy.ts';
export { classifyAddress, type AddressVerdict, type BlockReason } from './ip-address.ts';
export { parseHostPattern, patternMatches, type HostPattern } from './host-pattern.ts';
export { jcoEmbedPlugin } from './jco-patch.ts';
export * from './os/index.ts';
export { isCompiledBinary } from './runtime-mode.ts';
