import { afterEach, describe, expect, test } from 'bun:test';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MIGRATIONS, openStore } from '../../src/store/index.ts';
import { tempDir } from '../support/temp.ts';

const WRITER = join(import.meta.dir, 'fixtures', 'writer.ts');
const dirs: string[] = [];
function tmp(): string {
  const d = tempDir('moat-');
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Writer {
  proc: Bun.Subprocess<'ignore', 'pipe', 'pipe'>;
  lines: string[];
  waitFor(pred: (lines: string[]) => boolean): Promise<void>;
}

function spawnWriter(args: string[]): Writer {
  const proc = Bun.spawn(['bun', WRITER, ...args], { stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  const pump = (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    for await (const chunk of proc.stdout) {
      buf += decoder.decode(chunk, { stream: true });
      const parts = buf.split('\n');
      buf = parts.pop() ?? '';
      lines.push(...parts);
      for (const w of waiters.splice(0)) w();
    }
    for (const w of waiters.splice(0)) w();
  })();
  return {
    proc,
    lines,
    async waitFor(pred) {
      while (!pred(lines)) {
        if (proc.exitCode !== null && !pred(lines)) {
          await pump;
          if (pred(lines)) return;
          throw new Error(`writer exited ${proc.exitCode}: ${await new Response(proc.stderr).text()}`);
        }
        await Promise.race([new Promise<void>((r) => waiters.push(r)), Bun.sleep(50)]);
      }
    },
  };
}

async function finish(w: Writer): Promise<{ code: number; stderr: string }> {
  const code = await w.proc.exited;
  return { code, stderr: await new Response(w.proc.stderr).text() };
}

describe('store across processes', () => {
  test('two processes append 200 messages each to one session at once: no SQLITE_BUSY, 400 rows, seq 1..400', async () => {
    const dir = tmp();
    const db = join(dir, 'moat.db');
    const go = join(dir, 'go');
    const setup = openStore(db);
    const id = setup.sessions.create({ cwd: '/w', projectRoot: '/w', model: 'm', permissionMode: 'default' }).id;
    setup.close();

    const writers = [spawnWriter([db, id, '200', go]), spawnWriter([db, id, '200', go])];
    await Promise.all(writers.map((w) => w.waitFor((l) => l.includes('ready'))));
    writeFileSync(go, '');
    const results = await Promise.all(writers.map(finish));
    expect(results).toEqual([
      { code: 0, stderr: '' },
      { code: 0, stderr: '' },
    ]);

    const store = openStore(db);
    const messages = store.messages.list(id);
    store.close();
    expect(messages.length).toBe(400);
    expect(messages.map((m) => m.seq)).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    // Each writer's 200 messages are all there, in its own order.
    const pids = writers.map((w) => w.proc.pid);
    for (const pid of pids) {
      const mine = messages
        .map((m) => (m.message.content[0]?.type === 'text' ? m.message.content[0].text : ''))
        .filter((t) => t.startsWith(`${pid} `));
      expect(mine).toEqual(Array.from({ length: 200 }, (_, i) => `${pid} message ${i + 1}`));
    }
  }, 30_000);

  test('two processes opening a fresh database at once both migrate it without error', async () => {
    const dir = tmp();
    const db = join(dir, 'fresh', 'moat.db');
    const go = join(dir, 'go');
    const writers = [
      spawnWriter([db, 'session-a', '20', go, '--create-session']),
      spawnWriter([db, 'session-b', '20', go, '--create-session']),
    ];
    await Promise.all(writers.map((w) => w.waitFor((l) => l.includes('ready'))));
    writeFileSync(go, '');
    expect(await Promise.all(writers.map(finish))).toEqual([
      { code: 0, stderr: '' },
      { code: 0, stderr: '' },
    ]);
    const store = openStore(db);
    expect([store.schemaVersion(), store.messages.count('session-a'), store.messages.count('session-b')]).toEqual([
      MIGRATIONS.length, 20, 20,
    ]);
    store.close();
  }, 30_000);

  test('a writer killed with SIGKILL leaves every committed message readable', async () => {
    const dir = tmp();
    const db = join(dir, 'moat.db');
    const go = join(dir, 'go');
    writeFileSync(go, '');
    const setup = openStore(db);
    const id = setup.sessions.create({ cwd: '/w', projectRoot: '/w', model: 'm', permissionMode: 'default' }).id;
    setup.close();

    // COUNT 0: writes until killed.
    const w = spawnWriter([db, id, '0', go]);
    await w.waitFor((l) => l.filter((x) => /^\d+$/.test(x)).length >= 100);
    w.proc.kill('SIGKILL');
    expect(await w.proc.exited).not.toBe(0);
    const reported = Math.max(...w.lines.filter((x) => /^\d+$/.test(x)).map(Number));

    const store = openStore(db);
    const messages = store.messages.list(id);
    store.close();
    // Everything reported as committed is there; at most the one in flight beyond it.
    expect(messages.length).toBeGreaterThanOrEqual(reported);
    expect(messages.length).toBeLessThanOrEqual(reported + 1);
    expect(messages.map((m) => m.seq)).toEqual(Array.from({ length: messages.length }, (_, i) => i + 1));
    expect(messages[99]?.message).toEqual({
      role: 'user',
      content: [{ type: 'text', text: `${w.proc.pid} message 100` }],
    });
  }, 30_000);
});
