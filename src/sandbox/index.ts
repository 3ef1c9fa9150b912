/**
 * The WebAssembly sandbox: moat's own WASI 0.2 host for jco-transpiled
 * components, with fuel, memory, output and deadline limits, a child-process
 * backstop, the transpile cache, and the network policy shared with web_fetch.
 */
export * from './types.ts';
// Loading, running, the child and preparing a command import their modules on first use (lazy.ts).
export { loadComponent, loadCached, runComponent, forgetLoaded, runChildMain, prepareCommand, sandboxedGitStatus, runSandboxed, prepareSandboxed, runOwnProcess } from './lazy.ts';
export type { SuperviseOptions, RunSandboxedOptions, RunSandboxedResult, PrepareSandboxedOptions } from './os/run-sandboxed.ts';
export { processPolicy, levelGrants, type ProcessPolicy, type ProcessScope, type RuleDenies } from './policy.ts';
export type { LoadOptions } from './load.ts';
export { sha256 } from './hash.ts';
export { readEmbedded } from './embedded-file.ts';
export { checkImports, interfaceName, ALLOWED_INTERFACES } from './import-policy.ts';
export { CHILD_SUBCOMMAND } from './child-protocol.ts';
export { TRAP_EXIT_CODE, KILLED_EXIT_CODE } from './exit-codes.ts';
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
export { classifyAddress, isIP, type AddressVerdict, type BlockReason } from './ip-address.ts';
export { parseHostPattern, patternMatches, type HostPattern } from './host-pattern.ts';
export * from './os/index.ts';
export { isCompiledBinary } from './runtime-mode.ts';
