// Generated at build time by scripts/embed-tools.ts and resolved by a plugin in
// scripts/build.ts; only imported inside the compiled binary (see bundled.ts).
declare module 'moat:bundled-tools' {
  import type { EmbeddedTool } from './bundled.ts';
  export const BUNDLED_TOOLS: EmbeddedTool[];
  /** The embedded path of the zstd archive holding every tool's cache entry. */
  export const BUNDLED_ARCHIVE: string;
}
