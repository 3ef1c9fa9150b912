/** Opens the SQLite database (WAL, busy timeout) and its repositories. */
import { Database } from 'bun:sqlite';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MoatError, errorMessage, homeOf } from '../util/index.ts';
import { HistoryRepo } from './history.ts';
import { MessageRepo } from './messages.ts';
import { migrate, schemaVersion } from './migrate.ts';
import { MIGRATIONS, type Migration } from './migrations/index.ts';
import { SessionRepo } from './sessions.ts';
import { ToolCallRepo } from './tool-calls.ts';
import { UsageRepo } from './usage.ts';
import { WasmToolRepo } from './wasm-tools.ts';
import { CronRepo } from './cron.ts';
import { CheckpointRepo } from './checkpoints.ts';

export interface Store {
  /** The database file. */
  readonly path: string;
  readonly sessions: SessionRepo;
  readonly messages: MessageRepo;
  readonly toolCalls: ToolCallRepo;
  readonly usage: UsageRepo;
  readonly history: HistoryRepo;
  /** WebAssembly tools: the component index and the install ledger. */
  readonly wasmTools: WasmToolRepo;
  /** Scheduled jobs, their runs and the scheduler lock. */
  readonly cron: CronRepo;
  /** Checkpoints of sessions' turns (commits in shadow repositories) and conversation branches. */
  readonly checkpoints: CheckpointRepo;
  /** The highest migration recorded in the database. */
  schemaVersion(): number;
  /**
   * A record written in the background: an opened store writes it at once; a
   * lazy store (lazy-store.ts) keeps it, in order, until its next flush.
   */
  later(write: (store: Store) => void): void;
  /** Writes what `later` kept now, opening the database if need be; throws what the open or a write throws. */
  flush(): void;
  /** Asks for a flush once the current task is done (a request was just sent); a lazy store not yet open leaves it to its timer. */
  flushSoon(): void;
  close(): void;
}

export interface OpenStoreOptions {
  /** Replaces the built-in migration list (tests inject broken or future migrations). */
  migrations?: readonly Migration[];
  /** Clock for timestamps, in epoch milliseconds. */
  now?: () => number;
}

/**
 * `$XDG_DATA_HOME/moat/moat.db`, else `~/.local/share/moat/moat.db`. Built
 * from the environment, never from `import.meta.dir`, which is a read-only
 * virtual folder inside the compiled binary. (config's `moatPaths` computes
 * the same path; the two leaves cannot import each other.)
 */
export function defaultDbPath(env: Record<string, string | undefined> = process.env): string {
  const xdg = env.XDG_DATA_HOME;
  // XDG says relative values are invalid and must be ignored.
  const base = xdg && xdg.startsWith('/') ? xdg : join(homeOf(env), '.local', 'share');
  return join(base, 'moat', 'moat.db');
}

/**
 * Switches the database to WAL. SQLite does not call the busy handler for
 * this switch when another connection holds the file's lock while creating
 * it (two processes opening a fresh database at once: one gets SQLITE_BUSY
 * at once, busy_timeout or not), so the switch is retried here for up to
 * the same 5 s.
 */
function enableWal(db: Database): void {
  const deadline = Date.now() + 5000;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    try {
      db.run('PRAGMA journal_mode = WAL');
      return;
    } catch (e) {
      if ((e as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw e;
      Bun.sleepSync(wait);
    }
  }
}

/**
 * Opens (creating if needed) the database and applies pending migrations.
 * On an up-to-date database this is a handful of pragmas and two tiny
 * queries, about a millisecond: it sits on the startup path.
 */
export function openStore(path: string = defaultDbPath(), opts: OpenStoreOptions = {}): Store {
  const now = opts.now ?? Date.now;
  let db: Database;
  try {
    // 0700: transcripts can hold secrets the model read. mode only applies to folders created here.
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    db = new Database(path, { create: true, strict: true });
  } catch (e) {
    throw new MoatError('store', `cannot open database ${path}: ${errorMessage(e)}`, { user: true, cause: e });
  }
  try {
    db.run('PRAGMA busy_timeout = 5000');
    enableWal(db);
    db.run('PRAGMA synchronous = NORMAL');
    db.run('PRAGMA foreign_keys = ON');
    migrate(db, opts.migrations ?? MIGRATIONS, path);
  } catch (e) {
    db.close();
    if (e instanceof MoatError) throw e;
    // e.g. "file is not a database": say which file, in one line.
    throw new MoatError('store', `cannot open database ${path}: ${errorMessage(e)}`, { user: true, cause: e });
  }
  const store: Store = {
    path,
    sessions: new SessionRepo(db, now),
    messages: new MessageRepo(db, now),
    toolCalls: new ToolCallRepo(db, now),
    usage: new UsageRepo(db, now),
    history: new HistoryRepo(db, now),
    wasmTools: new WasmToolRepo(db, now),
    cron: new CronRepo(db, now),
    checkpoints: new CheckpointRepo(db, now),
    schemaVersion: () => schemaVersion(db),
    later: (write) => write(store),
    flush: () => {},
    flushSoon: () => {},
    close: () => db.close(),
  };
  return store;
}
