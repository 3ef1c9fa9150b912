import { Database } from 'bun:sqlite';
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { MIGRATIONS, type Migration, openStore } from '../../src/store/index.ts';
import { MoatError } from '../../src/util/index.ts';
import { useTmp } from './tmp.ts';

const tmp = useTmp();

function ledger(path: string): { version: number; name: string }[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.query<{ version: number; name: string }, []>('SELECT version, name FROM schema_migrations ORDER BY version').all();
  } finally {
    db.close();
  }
}

function tables(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((r) => r.name);
  } finally {
    db.close();
  }
}

function caught(f: () => unknown): unknown {
  try {
    f();
  } catch (e) {
    return e;
  }
  throw new Error('expected an error');
}

/** The version a test-injected migration takes: one past what this binary ships. */
const NEXT = MIGRATIONS.length + 1;
const pad = (n: number) => String(n).padStart(3, '0');

describe('migrations', () => {
  test('a fresh database records every migration in schema_migrations', () => {
    const path = join(tmp(), 'moat.db');
    const store = openStore(path);
    expect(store.schemaVersion()).toBe(MIGRATIONS.length);
    store.close();
    expect(ledger(path)).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
    expect(tables(path)).toEqual(['checkpoints', 'cron_jobs', 'cron_lock', 'cron_runs', 'messages', 'prompt_history', 'schema_migrations', 'sessions', 'tool_calls', 'usage', 'wasm_components', 'wasm_installs']);
  });

  test('reopening applies nothing twice', () => {
    const path = join(tmp(), 'moat.db');
    openStore(path).close();
    const store = openStore(path);
    store.close();
    expect(ledger(path)).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
  });

  test('a later migration is applied to an existing database and recorded', () => {
    const path = join(tmp(), 'moat.db');
    openStore(path).close();
    const next: Migration = { version: NEXT, name: 'tool-cache', sql: 'CREATE TABLE tool_cache_x (sha256 TEXT PRIMARY KEY) STRICT;' };
    const store = openStore(path, { migrations: [...MIGRATIONS, next] });
    store.close();
    expect(ledger(path)).toEqual([...MIGRATIONS, next].map(({ version, name }) => ({ version, name })));
    expect(tables(path)).toContain('tool_cache_x');
  });

  test('a failing migration rolls back: data kept, version unchanged, typed error naming it', () => {
    const path = join(tmp(), 'moat.db');
    const store = openStore(path);
    const s = store.sessions.create({ cwd: '/p', projectRoot: '/p', model: 'm', permissionMode: 'default' });
    store.messages.append(s.id, { role: 'user', content: [{ type: 'text', text: 'keep me' }] }, 1);
    store.close();

    // Half of it would succeed (a new table, a destructive delete) before the bad statement.
    const broken: Migration = {
      version: NEXT,
      name: 'broken',
      sql: 'CREATE TABLE half_done (x INTEGER); DELETE FROM messages; ALTER TABLE nope ADD COLUMN y TEXT;',
    };
    const e = caught(() => openStore(path, { migrations: [...MIGRATIONS, broken] }));
    expect(e).toBeInstanceOf(MoatError);
    expect({ code: (e as MoatError).code, message: (e as MoatError).message }).toEqual({
      code: 'store',
      message: `migration ${pad(NEXT)}-broken failed on ${path}: no such table: nope (rolled back; the database stays at version ${MIGRATIONS.length})`,
    });

    expect(ledger(path)).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
    expect(tables(path)).not.toContain('half_done');
    const again = openStore(path);
    expect(again.messages.history(s.id)).toEqual([{ role: 'user', content: [{ type: 'text', text: 'keep me' }] }]);
    again.close();
  });

  test('a database from a newer moat is refused in one clear line', () => {
    const path = join(tmp(), 'moat.db');
    const future: Migration = { version: NEXT, name: 'future', sql: 'CREATE TABLE future (x INTEGER);' };
    openStore(path, { migrations: [...MIGRATIONS, future] }).close();
    const e = caught(() => openStore(path));
    expect(e).toBeInstanceOf(MoatError);
    expect({ code: (e as MoatError).code, user: (e as MoatError).user, message: (e as MoatError).message }).toEqual({
      code: 'store',
      user: true,
      message: `${path} has schema version ${NEXT}, but this moat only knows up to ${MIGRATIONS.length}: upgrade moat to use it`,
    });
  });

  test('the version comes from the ledger, not from which tables exist', () => {
    const path = join(tmp(), 'moat.db');
    // Tables exist but nothing is recorded: migration 1 must run (and fail loudly on the clash),
    // rather than be skipped because "sessions exists".
    const db = new Database(path, { create: true });
    db.run('CREATE TABLE sessions (id TEXT)');
    db.close();
    const e = caught(() => openStore(path));
    expect((e as MoatError).message).toBe(
      `migration 001-init failed on ${path}: table sessions already exists (rolled back; the database stays at version 0)`,
    );
  });
});
