/** A store that opens its database on first use and writes records behind: nothing is created until a repository is used or a record's time is up, and a failed open is tried again. */
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

test('records given to later are written in order before any other use; nothing opens for them until then', () => {
  const path = join(tempDir('moat-lazy-store-'), 'moat.db');
  const opened: string[] = [];
  const store = lazyStore(path, (p) => (opened.push(p), openStore(p)), 60_000);
  const row = { id: '6a1f0c4e-2b7d-4d59-9c1e-0f2a3b4c5d6e', cwd: '/w', projectRoot: '/w', gitBranch: null, model: 'm', permissionMode: 'default' as const, parentId: null, agentId: null };
  // The message needs the session row (a foreign key): the order they were given in is the order they are written in.
  store.later((s) => s.sessions.create(row));
  store.later((s) => s.messages.append(row.id, { role: 'user', content: [{ type: 'text', text: 'hi' }] }, 1));
  expect(opened).toEqual([]);
  // Any use opens it, and finds them written.
  expect(store.messages.listFrom(row.id, 1).map((m) => m.message.role)).toEqual(['user']);
  expect(opened).toEqual([path]);
  // Once open, a record still waits: for the next use, here a read.
  store.later((s) => s.messages.append(row.id, { role: 'assistant', content: [{ type: 'text', text: 'hello' }] }, 1));
  expect(store.messages.listFrom(row.id, 1).map((m) => m.message.role)).toEqual(['user', 'assistant']);
  store.close();
});

test('flushSoon writes once the current task is done, but does not open the database', async () => {
  const path = join(tempDir('moat-lazy-store-'), 'moat.db');
  const opened: string[] = [];
  const store = lazyStore(path, (p) => (opened.push(p), openStore(p)), 60_000);
  const done: string[] = [];
  store.later(() => done.push('before open'));
  store.flushSoon();
  await new Promise((r) => setImmediate(r));
  expect(opened).toEqual([]);
  expect(done).toEqual([]);
  store.flush();
  expect(done).toEqual(['before open']);
  store.later(() => done.push('after'));
  store.flushSoon();
  expect(done).toEqual(['before open']);
  await new Promise((r) => setImmediate(r));
  expect(done).toEqual(['before open', 'after']);
  store.close();
});

test('a record waits at most writeWithinMs: the timer opens the database and writes it', async () => {
  const path = join(tempDir('moat-lazy-store-'), 'moat.db');
  const store = lazyStore(path, openStore, 20);
  const started = performance.now();
  const written = new Promise<number>((resolve) => store.later(() => resolve(performance.now() - started)));
  expect(existsSync(path)).toBe(false);
  const after = await written;
  expect(after).toBeGreaterThanOrEqual(15);
  expect(existsSync(path)).toBe(true);
  store.close();
});

test('close writes what is waiting first', () => {
  const path = join(tempDir('moat-lazy-store-'), 'moat.db');
  const store = lazyStore(path, openStore, 60_000);
  const row = { id: '7b2f0c4e-2b7d-4d59-9c1e-0f2a3b4c5d6e', cwd: '/w', projectRoot: '/w', gitBranch: null, model: 'm', permissionMode: 'default' as const, parentId: null, agentId: null };
  store.later((s) => s.sessions.create(row));
  store.close();
  const again = openStore(path);
  expect(again.sessions.require(row.id).cwd).toBe('/w');
  again.close();
});

test('flush() opens it now; a waiting write that fails is thrown there and stays first in line', () => {
  const path = join(tempDir('moat-lazy-store-'), 'moat.db');
  const store = lazyStore(path, openStore, 60_000);
  let fail = true;
  const done: string[] = [];
  store.later(() => {
    if (fail) throw new Error('disk full');
    done.push('first');
  });
  store.later(() => done.push('second'));
  expect(() => store.flush()).toThrow('disk full');
  expect(done).toEqual([]);
  fail = false;
  store.flush();
  expect(done).toEqual(['first', 'second']);
  store.close();
});

test('flush() after close does nothing: no database is made', () => {
  const path = join(tempDir('moat-lazy-store-'), 'data', 'moat.db');
  const store = lazyStore(path);
  store.close();
  store.flush();
  expect(existsSync(path)).toBe(false);
});

test('a process that exits (a second Ctrl-C, an uncaught error) writes what waits', async () => {
  const dir = tempDir('moat-lazy-store-');
  const path = join(dir, 'moat.db');
  const script = join(dir, 'exit.ts');
  const src = join(import.meta.dir, '../../src/store/index.ts');
  await Bun.write(
    script,
    `import { lazyStore } from ${JSON.stringify(src)};
const store = lazyStore(${JSON.stringify(path)}, undefined, 60_000);
store.later((s) => s.history.add('/w', 'kept at exit'));
process.exit(130);`,
  );
  const proc = Bun.spawn([process.execPath, script], { stdout: 'pipe', stderr: 'pipe' });
  expect(await proc.exited).toBe(130);
  const store = openStore(path);
  expect(store.history.list('/w', 10)).toEqual(['kept at exit']);
  store.close();
});
