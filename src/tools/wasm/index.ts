export * from './spec.ts';
export { parseHelp } from './help-parser.ts';
export { decodeHelp, type Decoded } from './decode.ts';
export { toArgs } from './args.ts';
export { mapOutput, summarizeMetadata, DEFAULT_OUTPUT_LIMITS, type OutputLimits } from './output.ts';
export { discoverTool, type HelpRun, type HelpRunner, type DiscoverOptions } from './discover.ts';
export { parseManifest, readManifest, locateKey, NO_MANIFEST, type ToolManifest, type PathGrant, type CwdAccess, type ManifestLimits } from './manifest.ts';
export { grantsFor, type Grants, type GrantContext } from './grants.ts';
