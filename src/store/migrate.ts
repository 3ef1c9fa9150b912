/** Applies schema migrations in order. */
import type { Database } from 'bun:sqlite';
import { MoatError, errorMessage } from '../util/index.ts';
import type { Migration } from './migrations/index.ts';

const CREATE_LEDGER = `CREATE TABLE IF NOT EXISTS schema_migrations (
  version    INTEGER PRIMARY KEY,
  name       TEXT    NOT NULL,
  applied_at INTEGER NOT NULL
) STRICT`;

/** The highest version recorded in `schema_migrations`, 0 for a fresh database. */
export function schemaVersion(db: Database): number {
  const ledger = db
    .query<{ n: number }, []>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  if (!ledger || ledger.n === 0) return 0;
  const row = db.query<{ v: number | null }, []>('SELECT max(version) AS v FROM schema_migrations').get();
  return row?.v ?? 0;
}

function label(m: Migration): string {
  return `${String(m.version).padStart(3, '0')}-${m.name}`;
}

function checkList(migrations: readonly Migration[]): void {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) {
      throw new MoatError('internal', `migration list is out of order: ${label(m)} at position ${i + 1}`);
    }
  });
}

/**
 * Brings the database up to the newest migration in `migrations`.
 *
 * The applied versions are read from the `schema_migrations` ledger, never
 * guessed from which tables exist. Each migration runs in its own IMMEDIATE
 * transaction together with its ledger row, so a failure rolls back both and
 * leaves the data and the recorded version as they were. IMMEDIATE (not the
 * default DEFERRED) takes the write lock up front: two processes opening a
 * fresh database at once queue on busy_timeout instead of one failing with
 * SQLITE_BUSY, and the version is re-read inside the lock so the second one
 * skips what the first applied.
 */
export function migrate(db: Database, migrations: readonly Migration[], dbPath: string): void {
  checkList(migrations);
  const latest = migrations.length;
  const current = schemaVersion(db);
  if (current > latest) {
    throw new MoatError(
      'store',
      `${dbPath} has schema version ${current}, but this moat only knows up to ${latest}: upgrade moat to use it`,
      { user: true },
    );
  }
  for (const m of migrations.slice(current)) {
    try {
      db.transaction(() => {
        db.run(CREATE_LEDGER);
        if (schemaVersion(db) >= m.version) return; // another process got here first
        db.run(m.sql);
        db.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
          m.version,
          m.name,
          Date.now(),
        );
      }).immediate();
    } catch (e) {
      throw new MoatError(
        'store',
        `migration ${label(m)} failed on ${dbPath}: ${errorMessage(e)} (rolled back; the database stays at version ${schemaVersion(db)})`,
        { cause: e },
      );
    }
  }
}
