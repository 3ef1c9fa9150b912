export { printRun, stopMessage, type OutputFormat, type PrintOptions, type RunFinished } from './run-print.ts';
export * as outputSchema from './schema.ts';
