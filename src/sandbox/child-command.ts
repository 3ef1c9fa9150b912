/** How to start the sandbox child process, from the binary or from source. */
import { join } from 'node:path';
import { CHILD_SUBCOMMAND } from './child-protocol.ts';
import { isCompiledBinary } from './runtime-mode.ts';

/**
 * How to start the sandbox child: inside the compiled binary it is the binary
 * itself with the hidden subcommand (the CLI routes it to runChildMain);
 * under `bun run`/`bun test` it is bun on child-entry.ts.
 */
export function childCommand(): string[] {
  if (isCompiledBinary()) return [process.execPath, CHILD_SUBCOMMAND];
  return [process.execPath, join(import.meta.dir, 'child-entry.ts')];
}
