/**
 * What a session writes to its store: a new session's row and first prompt
 * once that prompt's request is on its way (a given id is written when the
 * session opens, so one in use fails before any request is paid for), then
 * its title, status, messages and usage, in order.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test';
import { join } from 'node:path';
import { AgentSession, type AgentEvent } from '../../src/agent/index.ts';
import { createAnthropicProvider, type Provider } from '../../src/providers/index.ts';
import { lazyStore, openStore, type Store } from '../../src/store/index.ts';
import { builtinTools, ToolRegistry } from '../../src/tools/index.ts';
import { MoatError } from '../../src/util/index.ts';
import { testSettings } from '../support/agent-settings.ts';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { tempDir } from '../support/temp.ts';

let server: FakeAnthropic;
let cwd: string;
let dbFile: string;

beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  cwd = tempDir('moat-agent-store-');
  dbFile = join(cwd, '.db', 'moat.db');
  server.requests.length = 0;
});

/** The provider, noting in `log` when its stream is first asked for an event (the moment the request goes out). */
function noting(log: string[]): Provider {
  const real = createAnthropicProvider({ apiKey: 'k', baseURL: server.url });
  return {
    name: real.name,
    stream(request, options) {
      const events = real.stream(request, options);
      return {
        [Symbol.asyncIterator]() {
          const it = events[Symbol.asyncIterator]();
          return {
            next() {
              if (!log.includes('asked')) log.push('asked');
              return it.next();
            },
          };
        },
      };
    },
  };
}

function openSession(store: Store, log: string[], sessionId?: string): AgentSession {
  return AgentSession.open(
    { provider: noting(log), registry: new ToolRegistry(builtinTools()), store, settings: testSettings(cwd) },
    sessionId === undefined ? {} : { sessionId },
  );
}

async function collect(it: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

const finished = (events: AgentEvent[]) => events.find((e) => e.type === 'run_finished') as Extract<AgentEvent, { type: 'run_finished' }>;

test("a new session's database opens once its first request is on its way, and the session is all there afterwards", async () => {
  const log: string[] = [];
  const store = lazyStore(dbFile, (p) => {
    log.push('opened');
    return openStore(p);
  });
  const s = openSession(store, log);
  expect(log).toEqual([]);
  server.script(reply().text('Hello back.'));
  const events = await collect(s.run('Hello there\nsecond line', new AbortController().signal));
  expect(finished(events).stopReason).toBe('end_turn');
  expect(log).toEqual(['asked', 'opened']);
  expect(server.requests).toHaveLength(1);
  const row = store.sessions.require(s.id);
  expect({ title: row.title, status: row.status, cwd: row.cwd }).toEqual({ title: 'Hello there', status: 'completed', cwd });
  expect(store.messages.listFrom(s.id, 1).map((m) => [m.seq, m.message.role])).toEqual([
    [1, 'user'],
    [2, 'assistant'],
  ]);
  expect(store.usage.totals(s.id).usage.outputTokens).toBeGreaterThan(0);
  store.close();
});

test('a run that sends no request still records how it ended', async () => {
  const log: string[] = [];
  const store = lazyStore(dbFile);
  const s = openSession(store, log);
  const events = await collect(s.compact(undefined, new AbortController().signal));
  expect(finished(events).stopReason).toBe('error');
  expect(log).toEqual([]);
  expect(store.sessions.require(s.id).status).toBe('error');
  store.close();
});

test('a database that cannot be opened ends the first run with its error, after its one request', async () => {
  const log: string[] = [];
  const store = lazyStore(dbFile, (p) => {
    log.push('tried');
    throw new MoatError('store', `cannot open database ${p}: file is not a database`, { user: true });
  });
  const s = openSession(store, log);
  server.script(reply().text('never saved'));
  const end = finished(await collect(s.run('hi', new AbortController().signal)));
  expect(end.stopReason).toBe('error');
  expect(end.error).toContain(`cannot open database ${dbFile}: file is not a database`);
  expect(log[0]).toBe('asked');
  expect(log).toContain('tried');
  expect(server.requests).toHaveLength(1);
});

test('a given session id is written when the session opens: one in use is refused before any request', () => {
  const store = openStore(dbFile);
  const id = '0b6f1a52-4a43-4c87-9d0e-3f1f1d2b8a11';
  const first = openSession(store, [], id);
  expect(store.sessions.require(first.id).id).toBe(id);
  expect(() => openSession(store, [], id)).toThrow();
  expect(server.requests).toHaveLength(0);
  store.close();
});
