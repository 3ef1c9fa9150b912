/** The tools layer's public surface: registry, built-ins, permissions, WASM tools, process sandbox. */
export * from './types.ts';
export { ToolRegistry, toolInputJsonSchema, TOOL_SEARCH_THRESHOLD, MCP_DEFER_SHARE, type ToolSource, type SourceInstructions } from './registry.ts';
export { TOOL_SEARCH_NAME, searchTools } from './tool-search.ts';
export { runWithPolicy, isIdempotent, type ToolRunPolicy } from './run-policy.ts';
export { runParsedTool, unknownToolResult, abortedToolResult, invalidInputMessage, ABORTED_TOOL_MESSAGE } from './run-tool.ts';
export { resolveToolPath, intentPath, displayPath, expandHome, type ToolPath } from './paths.ts';
export { makePatch } from './builtin/shared/patch.ts';
export { walkFiles, type WalkEntry, type WalkOptions } from './builtin/shared/walk.ts';
export { builtinTools, createWebFetchTool,
  createHttpRequestTool,
  httpRequestTool, webFetchTool } from './builtin/index.ts';
export * from './permissions/index.ts';
export { processGrants } from './process-grants.ts';
export {
  processSandboxSettings,
  describeGrant,
} from './process-sandbox.ts';
export type { HookProcessOptions, HookProcessResult } from './hook-process.ts';
/** moat's own `git status` for the system prompt, in a read-only sandbox: the agent reaches the sandbox through tools only. */
export { sandboxedGitStatus } from '../sandbox/index.ts';
/** The runner of hook commands, loaded with the first hook that runs one (a session without command hooks never does). */
// Loaded on first use: with task-call, output-validator, hook-process, process-grants, discover and wasm-call up front, -p's first byte came 5.4 ms later (CPU +2.9 ms, RSS +1.1 MB; startup bench, n=20).
export const loadHookProcess = (): Promise<typeof import('./hook-process.ts')> => import('./hook-process.ts');
/** How a Bash call is prepared for the OS sandbox and its refusals worded, for a front end that runs the prepared command elsewhere (an editor's terminal). */
export const loadBashSpawn = (): Promise<typeof import('./builtin/bash/sandboxed-spawn.ts')> => import('./builtin/bash/sandboxed-spawn.ts');
// WebAssembly tools: discovery, the catalog of bundled and drop-in tools, and their Tool adapter.
export {
  WasmCatalog,
  bundledComponents,
  registerComponent,
  discoverSpecs,
  loadSource,
  readManifest,
  parseManifest,
  effectiveLimits,
  effectOf,
  levelOf,
  cwdAccessOf,
  grantsFor,
  toArgs,
  moveArgsToStdin,
  mapOutput,
  stoppedResult,
  memoryIndex,
  isSpecList,
  reallocWarning,
  namedSpecs,
  NO_MANIFEST,
  SPEC_FORMAT,
  type CatalogEntry,
  type CatalogOptions,
  type ComponentIndex,
  type ComponentRecord,
  type ToolFolder,
  type ToolManifest,
  type ToolOrigin,
  type LimitOverride,
  type LimitCeiling,
  type ToolSpecFromHelp,
  type Registered,
  type ComponentSource,
  type EmbeddedTool,
  type BundledComponent,
} from './wasm/index.ts';
