/** `-p` and stream-json output: the public line schema and the mapping from session events to it. */
export { printRun, stopMessage, type OutputFormat, type PrintOptions, type RunFinished } from './run-print.ts';
export * as outputSchema from './schema.ts';
export { OutputMapper, wireWorktree, type InitInfo, type OutputOptions } from './to-output.ts';
export type { WorktreeInfo, OutputLine, ResultLine } from './schema.ts';
export { makeColors, progressLine } from './progress.ts';
