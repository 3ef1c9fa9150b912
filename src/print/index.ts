/** `-p` and stream-json output: the public line schema and the mapping from session events to it. */
export { printRun, stopMessage, type OutputFormat, type PrintOptions, type RunFinished } from './run-print.ts';
// The zod schema of the lines (schema.ts) is not re-exported: writing lines must not evaluate it; it is the documentation's and the tests' source.
export { OutputMapper, wireWorktree, type InitInfo, type OutputOptions } from './to-output.ts';
export type { WorktreeInfo, OutputLine, ResultLine } from './schema.ts';
export { makeColors, progressLine } from './progress.ts';
