/** Component to JavaScript with jco's transpiler. */
import { errorMessage, MoatError } from '../util/index.ts';
import { ensureJcoPatch } from './jco-patch.ts';
import { isCompiledBinary } from './runtime-mode.ts';

/**
 * Component → JS with jco's own transpiler (js-component-bindgen), loaded
 * lazily: it is 3.4 MB of wasm and costs ~0.3–0.5 s the first time in a
 * process, which only a cache miss should pay. Imported statically, it
 * delayed a fresh process's first WebAssembly tool call (a bundled tool,
 * precompiled: `moat tool exec`) by 540 ms wall, 294 ms CPU
 * (scripts/bench/seam-paths.ts, 25 runs, load 4-7).
 */

export interface TranspileOutput {
  /** File name → contents: one `.js` module (instantiation mode) and the core `.wasm` modules. */
  files: Map<string, Uint8Array>;
  /** The name of the `.js` file in `files`. */
  jsFile: string;
  /** Imported interfaces, e.g. "wasi:cli/environment". */
  imports: string[];
  exports: string[];
}

interface BindgenModule {
  $init: Promise<void>;
  generate(component: Uint8Array, opts: object): { files: [string, Uint8Array][]; imports: string[]; exports: [string, string][] };
}

let bindgen: Promise<BindgenModule> | undefined;

/** How many components this process has transpiled (tests assert a cache hit did not transpile). */
export const transpileStats = { count: 0 };

function isBindgen(m: unknown): m is BindgenModule {
  return typeof m === 'object' && m !== null && 'generate' in m && typeof m.generate === 'function' && '$init' in m;
}

async function loadBindgen(): Promise<BindgenModule> {
  // Under `bun run`/`bun test` the patch is applied by a runtime plugin; the
  // compiled binary was bundled with the same patch (scripts/jco-embed-plugin.ts).
  if (!isCompiledBinary()) ensureJcoPatch();
  const m: unknown = await import('@bytecodealliance/jco-transpile/component');
  if (!isBindgen(m)) throw new MoatError('internal', 'jco transpiler module has an unexpected shape');
  await m.$init;
  return m;
}

export async function transpileComponent(component: Uint8Array, name: string): Promise<TranspileOutput> {
  bindgen ??= loadBindgen();
  const { generate } = await bindgen;
  transpileStats.count++;
  let out: ReturnType<BindgenModule['generate']>;
  try {
    out = generate(component, {
      name,
      instantiation: { tag: 'async' },
      // `optimized`/`direct-optimized` bindings emit JS that does not parse (jco 1.35): keep `js`.
      importBindings: { tag: 'js' },
      map: [],
      noTypescript: true,
      noNodejsCompat: false,
      tlaCompat: false,
      validLiftingOptimization: false,
      tracing: false,
      noComponentErrorWrapping: true,
      noNamespacedExports: false,
      multiMemory: false,
      // Every core module as a file, none inlined as base64: each is compiled once and kept.
      base64Cutoff: Number.MAX_SAFE_INTEGER,
    });
  } catch (e) {
    throw new MoatError('tool', `not a valid WebAssembly component: ${errorMessage(e)}`, { cause: e });
  }
  const jsFile = out.files.find(([n]) => n.endsWith('.js'))?.[0];
  if (jsFile === undefined) throw new MoatError('internal', 'jco produced no JS module');
  return { files: new Map(out.files), jsFile, imports: out.imports, exports: out.exports.map(([n]) => n) };
}
