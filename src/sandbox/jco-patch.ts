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
 * The same function serves `scripts/jco-embed-plugin.ts` (the bundler) and
 * `transpile.ts` (a runtime plugin under `bun run` / `bun test`), so what is
 * tested is what ships.
 */

/** jco's two vendored components: the transpiler (bindgen) and wasm-tools (tests build fixtures with it). */
export const BINDGEN_FILE = /[\\/]@bytecodealliance[\\/]jco-transpile[\\/]vendor[\\/](js-component-bindgen-component|wasm-tools)\.js$/;

export const SHIM_PATH = join(import.meta.dir, 'bindgen-shim.ts');

export function patchBindgen(source: string): string {
  let n = 0;
  const assets: string[] = [];
  let out = source.replace(/fetchCompile\(new URL\('\.\/([\w.-]+\.wasm)', import\.meta\.url\)\)/g, (_m, file: string) => {
    const id = `__jcoWasm${n++}`;
    assets.push(`import ${id} from './${file}' with { type: 'file' };`);
    return `fetchCompile(${id})`;
  });
  out = out.replace(/from '@bytecodealliance\/preview2-shim\/(cli|filesystem|io|random|clocks|sockets|http)'/g, () => `from ${JSON.stringify(SHIM_PATH)}`);
  if (n === 0 || out.includes('@bytecodealliance/preview2-shim')) {
    throw new Error('jco-patch: js-component-bindgen-component.js no longer has the expected shape; update src/sandbox/jco-patch.ts');
  }
  return `${assets.join('\n')}\n${out}`;
}

let registered = false;

/** Apply the patch at run time (`bun run` / `bun test`), once per process. */
export function ensureJcoPatch(): void {
  if (registered) return;
  registered = true;
  void Bun.plugin(jcoEmbedPlugin());
}

/** The patch as a Bun plugin, for `Bun.build({ plugins })` and for `Bun.plugin()` at run time. */
export function jcoEmbedPlugin(): Bun.BunPlugin {
  return {
    name: 'moat-jco-embed',
    setup(build) {
      build.onLoad({ filter: BINDGEN_FILE }, async (args) => ({
        contents: patchBindgen(await Bun.file(args.path).text()),
        loader: 'js',
      }));
    },
  };
}
