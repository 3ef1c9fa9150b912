/** The store's public surface: the database and its repositories. */
export { openStore, defaultDbPath, type Store, type OpenStoreOptions } from './store.ts';
export { lazyStore } from './lazy-store.ts';
export { type Migration, MIGRATIONS } from './migrations/index.ts';
export { SessionRepo } from './sessions.ts';
export { MessageRepo } from './messages.ts';
export { ToolCallRepo } from './tool-calls.ts';
export { UsageRepo } from './usage.ts';
export { HistoryRepo, HISTORY_LIMIT } from './history.ts';
export { WasmToolRepo, type ComponentRow, type InstallRow } from './wasm-tools.ts';
export { buildSessionExport, exportSessionJson, type SessionExport } from './export-json.ts';
export { exportSessionMarkdown } from './export-markdown.ts';
export type * from './types.ts';
export { CronRepo, type CronJob, type CronJobOptions, type CronRun, type CronRunStatus, type CronLock } from './cron.ts';
export { CheckpointRepo, type CheckpointRow, type LeftOutFile, type UserPrompt } from './checkpoints.ts';
