/**
 * Starts compiling yoga's WebAssembly (Ink's layout engine) on a helper
 * thread, so the first frame does not wait for it. `moat:yoga-wasm` exists
 * only in the built executable (scripts/yoga-wasm-plugin.ts); under `bun run`
 * and `bun test` there is nothing to start, and yoga compiles its own copy
 * when Ink loads. That is why it is an import(): statically, -p's first byte
 * took +2 ms CPU, the same wall time, and the first frame the same
 * (scripts/bench/seam-paths.ts, 20-40 runs, load 4-5).
 */
export function precompileYoga(): void {
  import('moat:yoga-wasm').then(
    // A failed compile shows where yoga waits for it (the module's instantiateWasm), not here.
    (m) => void m.start().catch(() => {}),
    () => {},
  );
}
