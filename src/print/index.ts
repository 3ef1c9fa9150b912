export { printRun, stopMessage, type OutputFormat, type PrintOptions, type RunFinished } from './run-print.ts';
export * as outputSchema from './schema.ts';
export { wireWorktree } from './to-output.ts';
export type { WorktreeInfo } from './schema.ts';
