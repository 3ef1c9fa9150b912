/**
 * Starts compiling yoga's WebAssembly (Ink's layout engine) on a helper
 * thread, so the first frame does not wait for it. `moat:yoga-wasm` exists
 * only in the built executable (scripts/yoga-wasm-plugin.ts); under `bun run`
 * and `bun test` there is nothing to start, and yoga compiles its own copy
 * when Ink loads.
 */
export function precompileYoga(): void {
  import('moat:yoga-wasm').then(
    // A failed compile shows where yoga waits for it (the module's instantiateWasm), not here.
    (m) => void m.start().catch(() => {}),
    () => {},
  );
}
