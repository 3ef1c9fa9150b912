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
