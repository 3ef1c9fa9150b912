/** The list of schema migrations. */
import init from './001-init.sql' with { type: 'text' };
import historyStart from './002-history-start.sql' with { type: 'text' };
import wasmTools from './003-wasm-tools.sql' with { type: 'text' };
import cron from './004-cron.sql' with { type: 'text' };
import checkpoints from './005-checkpoints.sql' with { type: 'text' };

/**
 * One schema change. `version` is its position (1, 2, 3 …) and is recorded in
 * `schema_migrations` together with `name` when it is applied.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Every migration this binary knows, oldest first. Append only: never edit or
 * renumber a migration that has shipped; add a new one instead. The SQL is
 * embedded as text so it works inside the compiled binary, where files next
 * to the source do not exist.
 */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'init', sql: init },
  { version: 2, name: 'history-start', sql: historyStart },
  { version: 3, name: 'wasm-tools', sql: wasmTools },
  { version: 4, name: 'cron', sql: cron },
  { version: 5, name: 'checkpoints', sql: checkpoints },
];
