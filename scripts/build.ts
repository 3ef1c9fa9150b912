/**
 * Builds dist/moat: one executable (bun build --compile), production React,
 * bytecode for fast startup, sourcemaps embedded so stack traces name our
 * files, react-devtools-core stubbed (ink imports it only when DEV=true, and
 * it is not installed). See shared/research/ink-bun-spike.md §1.
 * The bundled WebAssembly tools are built first (scripts/build-tools.ts).
 *
 *   bun run scripts/build.ts [outfile] [--without-other-sdks]
 *
 * `--without-other-sdks` builds a variant for measurement only: the OpenAI,
 * Gemini, Bedrock and Vertex adapters (and so their SDKs) left out, the floor
 * scripts/bench/provider-startup.ts compares the real binary's start-up with.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { jcoEmbedPlugin } from './jco-embed-plugin.ts';

const stubDevtools: Bun.BunPlugin = {
  name: 'stub-react-devtools-core',
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'stub' }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export default {}', loader: 'js' }));
  },
};

const args = process.argv.slice(2);
const withoutOtherSdks = args.includes('--without-other-sdks');
const outfile = args.find((a) => !a.startsWith('--')) ?? 'dist/moat';

/** For the measurement variant: the lazily imported adapters become modules that only throw. */
const withoutSdks: Bun.BunPlugin = {
  name: 'without-other-sdks',
  setup(b) {
    b.onResolve({ filter: /^\.\/(openai-chat\/index|openai-responses\/index|gemini\/index|anthropic\/bedrock|anthropic\/vertex)\.ts$/ }, (a) => ({
      path: a.path,
      namespace: 'no-sdk',
    }));
    b.onLoad({ filter: /.*/, namespace: 'no-sdk' }, () => ({
      contents: ['OpenAIChat', 'OpenAIResponses', 'Gemini', 'Bedrock', 'Vertex']
        .map((n) => `export function create${n}Provider() { throw new Error('built --without-other-sdks'); }`)
        .join('\n'),
      loader: 'js',
    }));
  },
};
const tools = Bun.spawnSync(['bun', 'run', 'scripts/build-tools.ts'], { stdout: 'inherit', stderr: 'inherit' });
if (tools.exitCode !== 0) process.exit(tools.exitCode ?? 1);
// The bundled tools go into the binary precompiled (transpiled, metered, specs parsed): scripts/embed-tools.ts.
const embed = Bun.spawnSync(['bun', 'run', 'scripts/embed-tools.ts'], { stdout: 'inherit', stderr: 'inherit' });
if (embed.exitCode !== 0) process.exit(embed.exitCode ?? 1);
const EMBEDDED_TOOLS = join(import.meta.dir, '..', 'dist', 'embed', 'bundled-tools.ts');

/** `moat:bundled-tools` (imported by src/tools/wasm/bundled.ts inside the binary) → the generated module. */
const bundledTools: Bun.BunPlugin = {
  name: 'moat-bundled-tools',
  setup(b) {
    b.onResolve({ filter: /^moat:bundled-tools$/ }, () => ({ path: EMBEDDED_TOOLS }));
  },
};
/**
 * One executable from `entry`. dist/moat comes from src/main.ts; dist/moat-test
 * (end-to-end tests only, never shipped) from test/support/moat-test-entry.ts,
 * which hands test switches to the composition root.
 */
async function compile(entry: string, outfile: string): Promise<void> {
  rmSync(outfile, { force: true });
  const started = performance.now();
  const result = await Bun.build({
    entrypoints: [entry],
    compile: { outfile },
    target: 'bun',
    format: 'esm',
    bytecode: true,
    // Keep identifiers so stack traces of real bugs stay readable.
    minify: { whitespace: true, syntax: true, identifiers: false },
    sourcemap: 'linked',
    define: { 'process.env.NODE_ENV': '"production"' },
    // jco's transpiler is embedded so third-party components can be transpiled at run time.
    plugins: [stubDevtools, jcoEmbedPlugin(), bundledTools, ...(withoutOtherSdks ? [withoutSdks] : [])],
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
  console.log(`built ${outfile} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

await compile('src/main.ts', outfile);
// The test build only for the default target, not for measurement variants or other outfiles.
if (args.length === 0) await compile('test/support/moat-test-entry.ts', 'dist/moat-test');
