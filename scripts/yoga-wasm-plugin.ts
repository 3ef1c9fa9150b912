/**
 * Build plugin: yoga (Ink's layout engine) instantiates a WebAssembly module
 * compiled off the main thread. yoga-layout ships its wasm as a base64 data:
 * URL inside its Emscripten glue; when Ink loads, the glue fetches that URL,
 * decodes it and compiles it on the main thread, ~4 ms of the TUI's first
 * frame on this machine. In dist/moat instead:
 *  - the wasm is embedded as a file of its own (72 KB), and the glue's base64
 *    copy (96 KB) is dropped;
 *  - the module `moat:yoga-wasm` compiles it with `WebAssembly.compile`, which
 *    JavaScriptCore runs on a helper thread, from the moment `start()` is
 *    called: src/tui/yoga-precompile.ts calls it as soon as the CLI knows the
 *    UI will start, well before Ink is imported;
 *  - yoga's entry hands the glue `instantiateWasm` (Emscripten's hook for
 *    supplying the instance), which instantiates that module.
 * The first frame is drawn before Ink loads (src/tui/first-paint.ts), so only
 * Ink's frame gains: built without this plugin it came 9-17 ms wall, 1-3 ms
 * CPU later, the first frame no later (scripts/bench/seam-paths.ts, 20-50
 * runs, load 4-5).
 * Under `bun run` and `bun test` yoga loads as published.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const DATA_URL = /"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/;

/** The glue's embedded wasm, decoded. Throws if yoga's glue no longer has the shape this plugin expects. */
export function wasmOfGlue(source: string): Uint8Array {
  const m = DATA_URL.exec(source);
  if (m?.[1] === undefined) throw new Error('no base64 wasm in yoga\'s glue: yoga-layout changed, update scripts/yoga-wasm-plugin.ts');
  return Uint8Array.fromBase64(m[1]);
}

/** The glue Ink's yoga-layout loads (resolved from ink, whose dependency it is). */
export function yogaGlue(): string {
  const root = join(import.meta.dir, '..');
  const yoga = Bun.resolveSync('yoga-layout', dirname(Bun.resolveSync('ink', root)));
  return join(dirname(yoga), '..', 'binaries', 'yoga-wasm-base64-esm.js');
}

export function yogaWasmPlugin(): Bun.BunPlugin {
  return {
    name: 'moat-yoga-wasm',
    setup(b) {
      const glue = /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/;
      // The glue without its base64 copy: with `instantiateWasm` given it never reads it.
      b.onLoad({ filter: glue }, (a) => {
        const source = readFileSync(a.path, 'utf8');
        if (!DATA_URL.test(source) || !source.includes('h.instantiateWasm(')) throw new Error(`${a.path}: unexpected yoga glue; update scripts/yoga-wasm-plugin.ts`);
        return { loader: 'js', contents: source.replace(DATA_URL, '""') };
      });
      b.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]src[\\/]index\.js$/ }, () => ({
        loader: 'js',
        contents: [
          "import loadYoga from '../binaries/yoga-wasm-base64-esm.js';",
          "import wrapAssembly from './wrapAssembly.js';",
          "import { instantiateWasm } from 'moat:yoga-wasm';",
          'const Yoga = wrapAssembly(await loadYoga({ instantiateWasm }));',
          'export default Yoga;',
          "export * from './generated/YGEnums.js';",
        ].join('\n'),
      }));
      b.onResolve({ filter: /^moat:yoga-wasm$/ }, () => ({ path: 'yoga-wasm', namespace: 'moat-yoga' }));
      b.onLoad({ filter: /^yoga-wasm$/, namespace: 'moat-yoga' }, () => ({
        loader: 'js',
        contents: [
          "import { readFileSync } from 'node:fs';",
          "import path from 'moat-yoga-bytes:yoga.wasm' with { type: 'file' };",
          'let compiled;',
          'export function start() {',
          '  return (compiled ??= WebAssembly.compile(readFileSync(path)));',
          '}',
          // Emscripten's hook: the glue waits for `receive(instance)`; a failure is thrown where the crash handler sees it.
          'export function instantiateWasm(imports, receive) {',
          '  start().then((m) => WebAssembly.instantiate(m, imports)).then(receive, (e) => queueMicrotask(() => { throw e; }));',
          '  return {};',
          '}',
        ].join('\n'),
      }));
      b.onResolve({ filter: /^moat-yoga-bytes:/ }, () => ({ path: 'yoga.wasm', namespace: 'moat-yoga-bytes' }));
      b.onLoad({ filter: /.*/, namespace: 'moat-yoga-bytes' }, () => {
        return { contents: wasmOfGlue(readFileSync(yogaGlue(), 'utf8')), loader: 'file' };
      });
    },
  };
}
