/**
 * The sandbox child under `bun run` / `bun test` (the compiled binary uses its
 * hidden `__sandbox-child` subcommand instead). See child-main.ts.
 */
import { runChildMain } from './child-main.ts';

process.exitCode = await runChildMain(process.argv.slice(2));
