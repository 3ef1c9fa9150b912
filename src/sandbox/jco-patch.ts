/** The patch that lets jco's transpiler run inside the compiled binary. */
import { join } from 'node:path';

/**
 * The build-time (and dev-time) patch that makes jco's transpiler run inside
 * `bun build --compile`. Its vendored component
 * (`@bytecodealliance/jco-transpile/vendor/js-component-bindgen-component.js`):
 *  - loads its core wasm with `fetchCompile(new URL('./x.core.wasm', import.meta.url))`,
 *    which the bundler does not embed → an `import … with { type: 'file' }` it does embed;
 *  - imports `@bytecodealliance/preview2-shim/*` (worker thread, process.exit)
 *    → our in-thread host, `bindgen-shim.ts`.
 * We import `generate` from that file directly, so jco-transpile's `dist/`
 * (which pulls in the native `oxc-minify`) is never bundled.
 *
 * In the bundle the core wasm (3.5 MB, needed only when a third-party
 * component is transpiled, i.e. on a cache miss) is embedded compressed with
 * zstd (0.9 MB) and decompressed in memory when the transpiler loads (~12 ms,
 * beside the ~0.3 s WebAssembly.compile of it). Under `bun run` / `bun test`
 * the file is read as installed; `embedded-file.ts` reads either.
 *
 * The same function serves `scripts/jco-embed-plugin.ts` (the bundler) and
 * `transpile.ts` (a runtime plugin under `bun run` / `bun test`), so what is
 * tested is what ships.
 */

/** jco's two vendored components: the transpiler (bindgen) and wasm-tools (tests build fixtures with it). */
export const BINDGEN_FILE = /[\\/]@bytecodealliance[\\/]jco-transpile[\\/]vendor[\\/](js-component-bindgen-component|wasm-tools)\.js$/;

/** Their core modules, which the patched source imports as files. */
export const BINDGEN_WASM = /[\\/]@bytecodealliance[\\/]jco-transpile[\\/]vendor[\\/](js-component-bindgen-component|wasm-tools)\.core\d*\.wasm$/;

export const SHIM_PATH = join(import.meta.dir, 'bindgen-shim.ts');

/** Reads an embedded file, decompressing it when the build compressed it. */
export const EMBEDDED_FILE_PATH = join(import.meta.dir, 'embedded-file.ts');

export function patchBindgen(source: string): string {
  let n = 0;
  const assets: string[] = [];
  let out = source.replace(/fetchCompile\(new URL\('\.\/([\w.-]+\.wasm)', import\.meta\.url\)\)/g, (_m, file: string) => {
    const id = `__jcoWasm${n++}`;
    assets.push(`import ${id} from './${file}' with { type: 'file' };`);
    return `WebAssembly.compile(__jcoReadEmbedded(${id}))`;
  });
  out = out.replace(/from '@bytecodealliance\/preview2-shim\/(cli|filesystem|io|random|clocks|sockets|http)'/g, () => `from ${JSON.stringify(SHIM_PATH)}`);
  if (n === 0 || out.includes('@bytecodealliance/preview2-shim')) {
    throw new Error('jco-patch: js-component-bindgen-component.js no longer has the expected shape; update src/sandbox/jco-patch.ts');
  }
  assets.push(`import { readEmbedded as __jcoReadEmbedded } from ${JSON.stringify(EMBEDDED_FILE_PATH)};`);
  return `${assets.join('\n')}\n${out}`;
}

/** Compressed once per process (level 19 takes ~2 s on the 3.5 MB module), for every build that embeds it. */
const compressed = new Map<string, Promise<Uint8Array>>();
function zstd(path: string): Promise<Uint8Array> {
  let out = compressed.get(path);
  if (out === undefined) compressed.set(path, (out = Bun.file(path).bytes().then((b) => Bun.zstdCompressSync(b, { level: 19 }))));
  return out;
}

let registered = false;

/** Apply the patch at run time (`bun run` / `bun test`), once per process. */
export function ensureJcoPatch(): void {
  if (registered) return;
  registered = true;
  void Bun.plugin(jcoEmbedPlugin({ compress: false }));
}

/**
 * The patch as a Bun plugin, for `Bun.build({ plugins })` and for `Bun.plugin()`
 * at run time. `compress` (the default, for bundling) embeds the core modules
 * zstd-compressed; the run-time plugin reads them where they are installed.
 */
export function jcoEmbedPlugin(options: { compress?: boolean } = {}): Bun.BunPlugin {
  const compress = options.compress ?? true;
  return {
    name: 'moat-jco-embed',
    setup(build) {
      build.onLoad({ filter: BINDGEN_FILE }, async (args) => ({
        contents: patchBindgen(await Bun.file(args.path).text()),
        loader: 'js',
      }));
      if (compress) {
        build.onLoad({ filter: BINDGEN_WASM }, async (args) => ({ contents: await zstd(args.path), loader: 'file' }));
      }
    },
  };
}
