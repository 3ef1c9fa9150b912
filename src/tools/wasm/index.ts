/** The WebAssembly tools folder's public surface. */
export * from './spec.ts';
export { parseHelp } from './help-parser.ts';
export { decodeHelp, type Decoded } from './decode.ts';
export { toArgs } from './args.ts';
export { moveArgsToStdin, MAX_ARGV_ARG } from './stdin-args.ts';
export { mapOutput, summarizeMetadata, DEFAULT_OUTPUT_LIMITS, type OutputLimits } from './output.ts';
export { discoverTool, type HelpRun, type HelpRunner, type DiscoverOptions } from './discover.ts';
export { parseManifest, readManifest, NO_MANIFEST, type ToolManifest, type PathGrant, type CwdAccess, type ManifestLimits } from './manifest.ts';
export { grantsFor, type Grants, type GrantContext } from './grants.ts';
export { inputProblems } from './args.ts';
export {
  wasmTool,
  effectOf,
  levelOf,
  cwdAccessOf,
  effectiveLimits,
  stoppedResult,
  type WasmToolDef,
  type ToolOrigin,
  type LimitOverride,
  type LimitCeiling,
} from './wasm-tool.ts';
export { SPEC_FORMAT, memoryIndex, isSpecList, type ComponentIndex, type ComponentRecord } from './spec-cache.ts';
export { bundledComponents, fromDirectory, installEntry, DEV_BUNDLED_DIR, type BundledComponent, type EmbeddedTool } from './bundled.ts';
export {
  registerComponent,
  discoverSpecs,
  namedSpecs,
  helpRunner,
  loadSource,
  reallocWarning,
  type RegisterContext,
  type ComponentSource,
  type Registered,
} from './register.ts';
export { WasmCatalog, type CatalogOptions, type CatalogEntry, type ToolFolder } from './catalog.ts';
