import { Database } from 'bun:sqlite';
import { describe, expect, test } from 'bun:test';
import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultDbPath, openStore } from '../../src/store/index.ts';
import { MoatError } from '../../src/util/index.ts';
import { useTmp } from './tmp.ts';

const tmp = useTmp();

describe('defaultDbPath', () => {
  test('follows XDG_DATA_HOME, else ~/.local/share, and ignores a relative XDG value', () => {
    expect([
      defaultDbPath({ XDG_DATA_HOME: '/xdg/data', HOME: '/home/u' }),
      defaultDbPath({ HOME: '/home/u' }),
      defaultDbPath({ XDG_DATA_HOME: 'relative', HOME: '/home/u' }),
      defaultDbPath({ XDG_DATA_HOME: '', HOME: '/home/u' }),
    ]).toEqual([
      '/xdg/data/moat/moat.db',
      '/home/u/.local/share/moat/moat.db',
      '/home/u/.local/share/moat/moat.db',
      '/home/u/.local/share/moat/moat.db',
    ]);
  });
});

describe('openStore', () => {
  test('creates the folder 0700 and the database in WAL mode', () => {
    const base = tmp();
    const path = defaultDbPath({ XDG_DATA_HOME: base });
    openStore(path).close();
    expect(statSync(join(base, 'moat')).mode & 0o777).toBe(0o700);
    const db = new Database(path, { readonly: true });
    const mode = db.query<{ journal_mode: string }, []>('PRAGMA journal_mode').get();
    db.close();
    expect(mode).toEqual({ journal_mode: 'wal' });
  });

  test('opens an existing database in a few milliseconds', () => {
    const path = join(tmp(), 'moat.db');
    openStore(path).close();
    const times: number[] = [];
    for (let i = 0; i < 15; i++) {
      const t0 = performance.now();
      const s = openStore(path);
      times.push(performance.now() - t0);
      s.close();
    }
    times.sort((a, b) => a - b);
    // ~0.3 ms measured; the bound leaves room for a loaded 2-core machine.
    expect(times[7]).toBeLessThan(5);
  });

  test('a file that is not a database is one clear store error', () => {
    const path = join(tmp(), 'moat.db');
    writeFileSync(path, 'this is not sqlite, just some text that is long enough to look like a header '.repeat(20));
    let err: unknown;
    try {
      openStore(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MoatError);
    expect({ code: (err as MoatError).code, user: (err as MoatError).user, message: (err as MoatError).message }).toEqual({
      code: 'store',
      user: true,
      message: `cannot open database ${path}: file is not a database`,
    });
  });

  test('a folder that cannot be created is one clear store error', () => {
    const dir = tmp();
    writeFileSync(join(dir, 'file'), '');
    const path = join(dir, 'file', 'moat.db');
    let err: unknown;
    try {
      openStore(path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(MoatError);
    const { code, message } = err as MoatError;
    // The OS part of the message varies (EEXIST/ENOTDIR); the shape does not.
    expect({ code, prefix: message.startsWith(`cannot open database ${path}: E`), lines: message.split('\n').length }).toEqual({
      code: 'store',
      prefix: true,
      lines: 1,
    });
  });
});
