/** A store that opens its database on first use: nothing is created until a repository is used, and a failed open is tried again. */
import { expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { lazyStore, openStore, type Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp.ts';

test('the path is known, and close is a no-op, before the database exists', () => {
  const path = join(tempDir('moat-lazy-store-'), 'data', 'moat.db');
  const opened: string[] = [];
  const store = lazyStore(path, (p) => (opened.push(p), openStore(p)));
  expect(store.path).toBe(path);
  store.close();
  expect(opened).toEqual([]);
  expect(existsSync(path)).toBe(false);
});

test('the first use opens it once; later uses share it', () => {
  const path = join(tempDir('moat-lazy-store-'), 'moat.db');
  const opened: string[] = [];
  const store = lazyStore(path, (p) => (opened.push(p), openStore(p)));
  const row = store.sessions.create({ cwd: '/w', projectRoot: '/w', gitBranch: null, model: 'm', permissionMode: 'default', parentId: null, agentId: null });
  expect(store.sessions.require(row.id).cwd).toBe('/w');
  expect(store.schemaVersion()).toBeGreaterThan(0);
  expect(opened).toEqual([path]);
  store.close();
  const again = openStore(path);
  expect(again.sessions.require(row.id).model).toBe('m');
  again.close();
});

test('a failed open is thrown at that use and tried again at the next', () => {
  const path = join(tempDir('moat-lazy-store-'), 'moat.db');
  let tries = 0;
  const store = lazyStore(path, (p): Store => {
    tries++;
    if (tries === 1) throw new Error('disk full');
    return openStore(p);
  });
  expect(() => store.sessions).toThrow('disk full');
  expect(store.history.list('/w', 10)).toEqual([]);
  expect(tries).toBe(2);
  store.close();
});

test('writes waiting for the open are done in order before the use that opens it; once open they are done at once', () => {
  const path = join(tempDir('moat-lazy-store-'), 'moat.db');
  const opened: string[] = [];
  const store = lazyStore(path, (p) => (opened.push(p), openStore(p)));
  const row = { id: '6a1f0c4e-2b7d-4d59-9c1e-0f2a3b4c5d6e', cwd: '/w', projectRoot: '/w', gitBranch: null, model: 'm', permissionMode: 'default' as const, parentId: null, agentId: null };
  // The message needs the session row (a foreign key): the order they were given in is the order they are written in.
  store.afterOpen((s) => s.sessions.create(row));
  store.afterOpen((s) => s.messages.append(row.id, { role: 'user', content: [{ type: 'text', text: 'hi' }] }, 1));
  expect(opened).toEqual([]);
  // Any use opens it, and finds them written.
  expect(store.messages.listFrom(row.id, 1).map((m) => m.message.role)).toEqual(['user']);
  let ran = false;
  store.afterOpen(() => (ran = true));
  expect(ran).toBe(true);
  expect(opened).toEqual([path]);
  store.close();
});

test('open() opens it now; a waiting write that fails is thrown there and stays first in line', () => {
  const path = join(tempDir('moat-lazy-store-'), 'moat.db');
  const store = lazyStore(path);
  let fail = true;
  const done: string[] = [];
  store.afterOpen(() => {
    if (fail) throw new Error('disk full');
    done.push('first');
  });
  store.afterOpen(() => done.push('second'));
  expect(() => store.open()).toThrow('disk full');
  expect(done).toEqual([]);
  fail = false;
  store.open();
  expect(done).toEqual(['first', 'second']);
  store.close();
});

test('open() after close does nothing: no database is made', () => {
  const path = join(tempDir('moat-lazy-store-'), 'data', 'moat.db');
  const store = lazyStore(path);
  store.close();
  store.open();
  expect(existsSync(path)).toBe(false);
});
