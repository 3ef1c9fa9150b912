/**
 * The command lines the root command runs without commander: `moat` alone,
 * the usual way the UI is opened. Commander parses an empty command line to
 * the root options that have a default (test/cli/plain-command-line.test.ts
 * checks these against it); loading commander and building the program for
 * that answer is time before the UI's first frame.
 */
import type { RootOptions } from './program.ts';

/** The options commander gives the root command for `argv`, when `argv` is one it would read that way; undefined for any other. */
export function plainRootOptions(argv: readonly string[]): RootOptions | undefined {
  if (argv.length > 0) return undefined;
  return { outputFormat: 'text', inputFormat: 'text', color: true, sessionPersistence: true };
}
