/**
 * Whether this process is the `bun build --compile` binary (its modules live
 * in Bun's embedded `/$bunfs/` filesystem) or `bun run` / `bun test` on the
 * sources. The two differ in how the child runner is spawned and in whether
 * the jco patch must be applied at run time.
 */
export function isCompiledBinary(): boolean {
  return import.meta.url.includes('$bunfs') || Bun.main.startsWith('/$bunfs/') || Bun.main.startsWith('B:/~BUN/');
}
