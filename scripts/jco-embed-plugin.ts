/**
 * The Bun plugin that lets jco's transpiler run inside `bun build --compile`
 * (see src/sandbox/jco-patch.ts for what it rewrites and why). Add it to the
 * `plugins` of the Bun.build call in scripts/build.ts:
 *
 *   import { jcoEmbedPlugin } from './jco-embed-plugin.ts';
 *   plugins: [stubDevtools, jcoEmbedPlugin()],
 */
export { jcoEmbedPlugin } from '../src/sandbox/jco-patch.ts';
