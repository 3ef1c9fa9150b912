/**
 * Builds dist/moat: one executable (bun build --compile), production React,
 * bytecode for fast startup, a start-up JIT policy, react-devtools-core stubbed (ink imports it only
 * when DEV=true, and it is not installed). See shared/research/ink-bun-spike.md §1.
 * The bundled WebAssembly tools are built first (scripts/build-tools.ts).
 *
 *   bun run scripts/build.ts [outfile] [--without-other-sdks] [--sourcemap] [--bytecode-order] [--target=bun-<os>-<arch>]
 *
 * `--target` cross-compiles for another platform (scripts/release.ts builds
 * every one it ships); without it, for this machine.
 *
 * `--bytecode-order` is for release builds: the binary is built, run the
 * ways users start it while Bun records what each loads
 * (scripts/bytecode-order.ts), and built again with its bytecode laid out by
 * those fresh profiles (peak RSS of `-p` ~2.7 MB lower). Nothing is
 * committed, so no profile goes stale; it needs tmux and takes one build more.
 *
 * What goes into the executable, and what stays out (scripts/bench/size.ts
 * measures it against a hello-world compiled by the same Bun):
 *  - code splitting: the entry is a few hundred bytes and every dynamic
 *    `import()` its own chunk with its own bytecode, so `moat --version` and
 *    the sandbox child load only what they use;
 *  - no source map by default (it was 7.9 MB of the binary): stack traces name
 *    the functions (identifiers are not minified) at chunk:line:column, not
 *    src/file.ts:line. `--sourcemap` embeds one (zstd) for a debugging build;
 *  - files needed rarely are embedded zstd-compressed and decompressed in
 *    memory on use: jco's transpiler wasm (3.5 → 0.9 MB, src/sandbox/jco-patch.ts),
 *    the seccomp loader (only this machine's architecture's: 1.4 MB for both
 *    → 0.3 MB), and pdf.js (unpdf's serverless build: 1.7 MB of JS, 5.6 MB
 *    with its bytecode → 0.4 MB, loaded only to read a PDF, see `coldModules`);
 *  - node-forge, which only the sandbox runtime's TLS interception uses and
 *    moat never turns on, is left out (`notNeeded`);
 *  - string-width tests a grapheme against the RGI emoji class only when it
 *    may be one (scripts/string-width-patch.ts: ~8 ms less before the TUI's
 *    first frame, the same widths);
 *  - the resource classes of @anthropic-ai/sdk that only the Bedrock and
 *    Vertex clients build are copies of their own, out of the chunk the
 *    default Anthropic path loads (scripts/cloud-sdk-split.ts: 539 → 181 KB,
 *    ~7 ms sooner to `-p`'s first request);
 *  - text imports (tool descriptions, prompts, migrations) are strings in the
 *    chunks that use them, not modules of their own that each chunk requires
 *    when it is evaluated (scripts/text-modules.ts: 17 before `-p`'s first
 *    request, ~2 ms).
 *
 * `--without-other-sdks` builds a variant for measurement only: the OpenAI,
 * Gemini, Bedrock and Vertex adapters (and so their SDKs) left out, the floor
 * scripts/bench/provider-startup.ts compares the real binary's start-up with.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { jcoEmbedPlugin } from './jco-embed-plugin.ts';
import { stringWidthPlugin } from './string-width-patch.ts';
import { commanderPlugin } from './commander-patch.ts';
import { cloudSdkSplitPlugin } from './cloud-sdk-split.ts';
import { textModulesPlugin } from './text-modules.ts';
import { yogaWasmPlugin } from './yoga-wasm-plugin.ts';
import { notNeeded } from './not-needed-plugin.ts';

const stubDevtools: Bun.BunPlugin = {
  name: 'stub-react-devtools-core',
  setup(b) {
    b.onResolve({ filter: /^react-devtools-core$/ }, () => ({ path: 'react-devtools-core', namespace: 'stub' }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, () => ({ contents: 'export default {}', loader: 'js' }));
  },
};

const args = process.argv.slice(2);
const withoutOtherSdks = args.includes('--without-other-sdks');
const withSourcemap = args.includes('--sourcemap');
const withBytecodeOrder = args.includes('--bytecode-order');
const outfile = args.find((a) => !a.startsWith('--')) ?? 'dist/moat';
const target = args.find((a) => a.startsWith('--target='))?.slice('--target='.length) as Bun.Build.CompileTarget | undefined;
if (withBytecodeOrder && target !== undefined) {
  console.error('build: --bytecode-order runs the executable to record it, so it cannot be combined with --target');
  process.exit(2);
}
/** The platform the executable runs on: `bun-linux-arm64-baseline` → linux, arm64. */
const [targetOs, targetArch] = target === undefined ? [process.platform, process.arch] : target.split('-').slice(1, 3).map((p) => (p === 'windows' ? 'win32' : p));

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
const SRC = join(import.meta.dir, '..', 'src');

/** `moat:bundled-tools` (imported by src/tools/wasm/bundled.ts inside the binary) → the generated module. */
const bundledTools: Bun.BunPlugin = {
  name: 'moat-bundled-tools',
  setup(b) {
    b.onResolve({ filter: /^moat:bundled-tools$/ }, () => ({ path: EMBEDDED_TOOLS }));
  },
};
/** zstd at level 19 (~2 s for pdf.js), once per file for both executables; `read` gives its contents (default: the file's). */
const compressed = new Map<string, Promise<Uint8Array>>();
function zstd(path: string, read: () => Promise<Uint8Array | string> = () => Bun.file(path).bytes()): Promise<Uint8Array> {
  let out = compressed.get(path);
  if (out === undefined) compressed.set(path, (out = read().then((b) => Bun.zstdCompressSync(b, { level: 19 }))));
  return out;
}

/**
 * The sandbox runtime's seccomp loader ships for x64 and arm64; the executable
 * runs on one, so only the target's is embedded, compressed, and the other's
 * import becomes an empty file (src/sandbox/os/seccomp-helper.ts reads both).
 * A macOS or Windows executable embeds neither (bubblewrap is Linux's).
 */
const seccompHelpers: Bun.BunPlugin = {
  name: 'moat-seccomp-helper',
  setup(b) {
    b.onLoad({ filter: /[\\/]@anthropic-ai[\\/]sandbox-runtime[\\/]vendor[\\/]seccomp[\\/](x64|arm64)[\\/]apply-seccomp$/ }, async (a) => {
      const arch = /[\\/](x64|arm64)[\\/]apply-seccomp$/.exec(a.path)?.[1];
      return { contents: targetOs === 'linux' && arch === targetArch ? await zstd(a.path) : new Uint8Array(0), loader: 'file' };
    });
  },
};

/**
 * Modules loaded rarely, embedded as zstd-compressed source instead of being
 * bundled with the rest: no bytecode (bytecode is ~2.3x the source), and on
 * first use decompressed in memory and imported from a blob: URL (parsed then,
 * ~1.7 MB of JS in ~30 ms). One with dependencies of its own is first bundled
 * with them into one ES module (node: built-ins stay imports; the runtime
 * resolves them). unpdf loads pdf.js with `await import('unpdf/pdfjs')` only
 * to read a PDF; the Read tool imports music-metadata (359 KB bundled, ~1 MB
 * of the executable with its bytecode) only for an audio or video file's tags.
 */
const COLD_MODULES = ['unpdf/pdfjs', 'music-metadata'];

/**
 * Each cold module's source, self-contained: the file itself, or bundled with
 * its dependencies. Worked out before the executables are built: a Bun.build
 * started from inside another one's plugin never finishes.
 */
const coldSources = new Map<string, string>();
for (const name of COLD_MODULES) {
  const path = Bun.resolveSync(name, SRC);
  const text = await Bun.file(path).text();
  if (new Bun.Transpiler({ loader: 'js' }).scan(text).imports.every((i) => isBuiltin(i.path))) {
    coldSources.set(path, text);
    continue;
  }
  const built = await Bun.build({ entrypoints: [path], target: 'bun', format: 'esm', minify: { whitespace: true, syntax: true } });
  if (!built.success || built.outputs.length !== 1) throw new Error(`${path}: could not bundle it as one cold module: ${built.logs.join('; ')}`);
  coldSources.set(path, await built.outputs[0]!.text());
}

async function coldSource(path: string): Promise<string> {
  return coldSources.get(path) ?? (await Bun.file(path).text());
}

const coldModules: Bun.BunPlugin = {
  name: 'moat-cold-modules',
  setup(b) {
    const filter = new RegExp(`^(${COLD_MODULES.map((m) => m.replace(/[/.]/g, '\\$&')).join('|')})$`);
    b.onResolve({ filter }, (a) => ({ path: Bun.resolveSync(a.path, dirname(a.importer)), namespace: 'moat-cold' }));
    b.onLoad({ filter: /.*/, namespace: 'moat-cold' }, async (a) => {
      const scan = new Bun.Transpiler({ loader: 'js' }).scan(await coldSource(a.path));
      const outside = scan.imports.filter((i) => !isBuiltin(i.path));
      if (outside.length > 0) throw new Error(`${a.path} still imports ${outside.map((i) => i.path).join(', ')}; a cold module must be self-contained`);
      const names = scan.exports.filter((n) => n !== 'default');
      return {
        loader: 'js',
        contents: [
          `import source from ${JSON.stringify(`moat-zstd-cold:${a.path}`)} with { type: 'file' };`,
          "const url = URL.createObjectURL(new Blob([Bun.zstdDecompressSync(await Bun.file(source).bytes())], { type: 'text/javascript' }));",
          'let m;',
          'try { m = await import(url); } finally { URL.revokeObjectURL(url); }',
          names.length > 0 ? `export const { ${names.join(', ')} } = m;` : '',
          scan.exports.includes('default') ? 'export default m.default;' : '',
        ].join('\n'),
      };
    });
    // A path of its own (`.zst`): Bun keys modules by path, so the cold module's own path would be that module.
    b.onResolve({ filter: /^moat-zstd-cold:/ }, (a) => ({ path: `${a.path.slice('moat-zstd-cold:'.length)}.zst`, namespace: 'moat-zstd-cold' }));
    b.onLoad({ filter: /\.zst$/, namespace: 'moat-zstd-cold' }, async (a) => ({ contents: await zstd(a.path, () => coldSource(a.path.slice(0, -'.zst'.length))), loader: 'file' }));
  },
};

/**
 * Data computed from the sources, worked out once while bundling and embedded
 * as literals, so start-up does not compute it: the built-in tools' JSON
 * Schemas (src/tools/builtin/json-schemas.ts), the other tools' schemas
 * (every `inputJsonSchemaOf('module', 'name')` call in src/ is evaluated and
 * src/util/json-schema.ts's function becomes a lookup of the results), and
 * the bundled skills and agents (src/skills/bundled-parse.ts; their bodies
 * in a file read on first use, src/skills/bundled-module.ts). Under
 * `bun run` and `bun test` the same functions compute at run time. Bun macros
 * did this first, but under `bun test` a macro stops applying once a run-time
 * plugin (jco's) has loaded a module, and its function is left undefined.
 */
const precomputed: Bun.BunPlugin = {
  name: 'moat-precomputed',
  setup(b) {
    const literal = (name: string, value: unknown): string => `export function ${name}() { return ${JSON.stringify(value)}; }\n`;
    b.onLoad({ filter: /[\\/]src[\\/]tools[\\/]builtin[\\/]json-schemas\.ts$/ }, async (a) => {
      const { builtinJsonSchemas } = (await import(a.path)) as { builtinJsonSchemas: () => unknown };
      return { loader: 'js', contents: literal('builtinJsonSchemas', builtinJsonSchemas()) };
    });
    // The skills' and agents' bodies are an embedded file of their own, read on first use (src/skills/bundled-module.ts).
    let bundled: Promise<{ source: string; bodies: string }> | undefined;
    const bundledModule = (): Promise<{ source: string; bodies: string }> =>
      (bundled ??= import(join(SRC, 'skills', 'bundled-module.ts')).then((m: typeof import('../src/skills/bundled-module.ts')) => m.bundledModule('moat-bundled-bodies')));
    b.onLoad({ filter: /[\\/]src[\\/]skills[\\/]bundled-parse\.ts$/ }, async () => ({ loader: 'js', contents: (await bundledModule()).source }));
    b.onResolve({ filter: /^moat-bundled-bodies$/ }, () => ({ path: 'bundled-bodies.json', namespace: 'moat-bundled-bodies' }));
    b.onLoad({ filter: /.*/, namespace: 'moat-bundled-bodies' }, async () => ({ loader: 'file', contents: (await bundledModule()).bodies }));
    b.onLoad({ filter: /[\\/]src[\\/]util[\\/]json-schema\.ts$/ }, async (a) => {
      const { inputJsonSchemaOf } = (await import(a.path)) as { inputJsonSchemaOf: (module: string, name: string) => unknown };
      const table: Record<string, unknown> = {};
      for (const file of new Bun.Glob('**/*.ts').scanSync(SRC)) {
        for (const m of readFileSync(join(SRC, file), 'utf8').matchAll(/inputJsonSchemaOf\('([^']+)', '([^']+)'\)/g)) {
          table[`${m[1]}#${m[2]}`] = inputJsonSchemaOf(m[1] ?? '', m[2] ?? '');
        }
      }
      const source = await Bun.file(a.path).text();
      const cut = source.indexOf('export function inputJsonSchemaOf(');
      if (cut < 0) throw new Error(`${a.path}: inputJsonSchemaOf not found`);
      const lookup = [
        `const PRECOMPUTED: Record<string, Record<string, unknown>> = ${JSON.stringify(table)};`,
        'export function inputJsonSchemaOf(module: string, name: string): Record<string, unknown> {',
        "  const schema = PRECOMPUTED[`${module}#${name}`];",
        '  if (schema === undefined) throw new Error(`no JSON Schema was computed for ${module} ${name} while bundling`);',
        '  return schema;',
        '}',
      ].join('\n');
      return { loader: 'ts', contents: `${source.slice(0, cut)}${lookup}\n` };
    });
  },
};

/**
 * The shell grammar for permission decisions (web-tree-sitter's runtime and
 * tree-sitter-bash, 1.57 MB of wasm) is read once, on the first Bash check:
 * embedded compressed (0.21 MB), src/tools/permissions/bash-parser.ts reads
 * it with readEmbedded.
 */
const shellGrammar: Bun.BunPlugin = {
  name: 'moat-shell-grammar',
  setup(b) {
    b.onLoad({ filter: /[\\/](web-tree-sitter[\\/]web-tree-sitter|tree-sitter-bash[\\/]tree-sitter-bash)\.wasm$/ }, async (a) => ({ contents: await zstd(a.path), loader: 'file' }));
  },
};

/**
 * The executable starts with the JIT's tier-up thresholds ×8: start-up code
 * mostly runs once, and compiling it competes with start-up for the cores.
 * src/util/jit-policy.ts sets the normal policy back once moat is interactive
 * (and holds `-p` back further). Not used, measured on `-p` read-then-answer
 * (20 interleaved runs): Bun's `--smol` as the executable's exec argument
 * (`compile.execArgv`) made peak RSS 0.3–0.8 MB larger at the same wall time.
 */
const JIT_POLICY = 8;

/**
 * One executable from `entry`. dist/moat comes from src/main.ts; dist/moat-test
 * (end-to-end tests only, never shipped) from test/support/moat-test-entry.ts,
 * which hands test switches to the composition root.
 */
async function compile(entry: string, outfile: string, bytecodeOrder?: string[]): Promise<void> {
  rmSync(outfile, { force: true });
  const started = performance.now();
  const result = await Bun.build({
    entrypoints: [entry],
    compile: { outfile, jitPolicy: JIT_POLICY, ...(bytecodeOrder === undefined ? {} : { bytecodeOrder }), ...(target === undefined ? {} : { target }) },
    target: 'bun',
    format: 'esm',
    bytecode: true,
    splitting: true,
    // Keep identifiers so stack traces of real bugs stay readable (Bun's keepNames does not keep them).
    minify: { whitespace: true, syntax: true, identifiers: false },
    sourcemap: withSourcemap ? 'linked' : 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    // jco's transpiler is embedded so third-party components can be transpiled at run time.
    plugins: [stubDevtools, jcoEmbedPlugin(), bundledTools, seccompHelpers, shellGrammar, precomputed, coldModules, notNeeded, stringWidthPlugin, commanderPlugin, cloudSdkSplitPlugin, textModulesPlugin, yogaWasmPlugin(), ...(withoutOtherSdks ? [withoutSdks] : [])],
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    process.exit(1);
  }
  // With --sourcemap the maps are embedded; the copies Bun also writes beside the executable (one per chunk) go.
  for (const o of result.outputs) if (o.kind === 'sourcemap') rmSync(o.path, { force: true });
  // Bun names a Windows executable `<outfile>.exe`.
  const written = targetOs === 'win32' ? `${outfile}.exe` : outfile;
  console.log(`built ${written} (${(Bun.file(written).size / 1e6).toFixed(1)} MB) in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

await compile('src/main.ts', outfile);
if (withBytecodeOrder) {
  const profiles = mkdtempSync(join(tmpdir(), 'bytecode-order-'));
  try {
    const recorded = Bun.spawnSync(['bun', 'run', join(import.meta.dir, 'bytecode-order.ts'), outfile, profiles], { stdout: 'inherit', stderr: 'inherit' });
    if (recorded.exitCode !== 0) process.exit(recorded.exitCode ?? 1);
    await compile('src/main.ts', outfile, ['tui', 'print', 'stream-json'].map((name) => join(profiles, `${name}.order`)));
  } finally {
    rmSync(profiles, { recursive: true, force: true });
  }
}
// The test build only for the default target, not for measurement variants or other outfiles.
if (args.length === 0) await compile('test/support/moat-test-entry.ts', 'dist/moat-test');
