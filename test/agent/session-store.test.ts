/**
 * What a session writes to its store, and when: behind its requests (a given
 * id is written when the session opens, so one in use fails before any
 * request is paid for): its row, title, status, messages, usage and tool
 * calls, in order; nothing between a model's answer and the next request.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test';
import { join } from 'node:path';
import { AgentSession, type AgentEvent } from '../../src/agent/index.ts';
import { createAnthropicProvider, type Provider } from '../../src/providers/index.ts';
import { lazyStore, openStore, type Store } from '../../src/store/index.ts';
import { builtinTools, defineTool, ToolRegistry, type AnyTool } from '../../src/tools/index.ts';
import { z } from 'zod';
import { writeFileSync } from 'node:fs';
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

/** The provider, noting in `log` each request as it goes out ("request N"). */
function numbering(log: string[]): Provider {
  const real = createAnthropicProvider({ apiKey: 'k', baseURL: server.url });
  let n = 0;
  return {
    name: real.name,
    stream(request, options) {
      const events = real.stream(request, options);
      let asked = false;
      return {
        [Symbol.asyncIterator]() {
          const it = events[Symbol.asyncIterator]();
          return {
            next() {
              if (!asked) log.push(`request ${++n}`);
              asked = true;
              return it.next();
            },
          };
        },
      };
    },
  };
}

/** A lazy store (no timer within the test) whose open and message writes are noted in `log`. */
function notingStore(log: string[]): Store {
  return lazyStore(
    dbFile,
    (p) => {
      log.push('opened');
      const real = openStore(p);
      const append = real.messages.append.bind(real.messages);
      real.messages.append = (id, message, turn) => (log.push(`append ${message.role}`), append(id, message, turn));
      return real;
    },
    60_000,
  );
}

test("between a model's answer and the next request nothing is written: each step's records go out behind the next request", async () => {
  writeFileSync(join(cwd, 'a.txt'), 'hello\n');
  const log: string[] = [];
  const store = notingStore(log);
  const s = AgentSession.open({ provider: numbering(log), registry: new ToolRegistry(builtinTools()), store, settings: testSettings(cwd) });
  server.script(reply().toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'), reply().text('It says hello.'));
  expect(finished(await collect(s.run('read a.txt', new AbortController().signal))).stopReason).toBe('end_turn');
  // The first run: the database opens at its end (no timer here), after both requests.
  expect(log).toEqual(['request 1', 'request 2', 'opened', 'append user', 'append assistant', 'append user', 'append assistant']);
  log.length = 0;
  // Once open, a step's records are written as soon as the next request is on its way.
  server.script(reply().toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'), reply().text('Still hello.'));
  expect(finished(await collect(s.run('again', new AbortController().signal))).stopReason).toBe('end_turn');
  expect(log).toEqual(['request 3', 'append user', 'request 4', 'append assistant', 'append user', 'append assistant']);
  const stored = store.messages.listFrom(s.id, 1).map((m) => m.message.role);
  expect(stored).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  expect(store.toolCalls.list(s.id).map((c) => c.name)).toEqual(['Read', 'Read']);
  expect(store.usage.totals(s.id).usage.outputTokens).toBeGreaterThan(0);
  store.close();
});

test("a model's answer is on disk within the store's window while its tool still runs", async () => {
  let release!: () => void;
  const running = new Promise<void>((r) => (release = r));
  let started!: () => void;
  const toolStarted = new Promise<void>((r) => (started = r));
  const slow = defineTool({
    name: 'slow',
    description: 'waits for the test',
    inputSchema: z.object({}),
    effect: 'read',
    intent: () => ({ ruleName: 'Slow', paths: [], summary: 'slow' }),
    async execute() {
      started();
      await running;
      return { content: 'done' };
    },
  }) as AnyTool;
  const store = lazyStore(dbFile, openStore, 20);
  const s = AgentSession.open({ provider: numbering([]), registry: new ToolRegistry([...builtinTools(), slow]), store, settings: testSettings(cwd) });
  server.script(reply().toolUse('slow', {}).stop('tool_use'), reply().text('ok'));
  const events = collect(s.run('wait', new AbortController().signal));
  await toolStarted;
  // Another process's view of the database: polled until the answer with the tool call is there (the store's timer writes it).
  const reader = await (async () => {
    for (;;) {
      try {
        return openStore(dbFile);
      } catch {
        await Bun.sleep(5);
      }
    }
  })();
  const answer = async (): Promise<string[]> => {
    for (;;) {
      const roles = reader.messages.listFrom(s.id, 1).map((m) => m.message.role);
      if (roles.includes('assistant')) return roles;
      await Bun.sleep(5);
    }
  };
  expect(await answer()).toEqual(['user', 'assistant']);
  release();
  expect(finished(await events).stopReason).toBe('end_turn');
  expect(reader.messages.listFrom(s.id, 1).map((m) => m.message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  reader.close();
  store.close();
});

test('before a call that acts (not read-only) runs, the answer that asked for it is on disk; a read-only call does not wait for it', async () => {
  const seen: Record<string, string[]> = {};
  const probe = (name: string, effect: 'read' | 'execute') =>
    defineTool({
      name,
      description: 'notes what the database holds when it runs',
      inputSchema: z.object({}),
      effect,
      intent: () => ({ ruleName: name, paths: [], summary: name }),
      async execute() {
        const reader = openStore(dbFile);
        seen[name] = reader.messages.listFrom(s.id, 1).map((m) => m.message.role);
        reader.close();
        return { content: 'ok' };
      },
    }) as AnyTool;
  const store = lazyStore(dbFile, openStore, 60_000);
  // The database exists (so the read-only probe can look) but holds nothing of this session yet.
  store.flush();
  const s = AgentSession.open({
    provider: numbering([]),
    registry: new ToolRegistry([...builtinTools(), probe('Looks', 'read'), probe('Acts', 'execute')]),
    store,
    settings: { ...testSettings(cwd), permissionMode: 'bypassPermissions' },
  });
  server.script(reply().toolUse('Looks', {}).stop('tool_use'), reply().toolUse('Acts', {}).stop('tool_use'), reply().text('ok'));
  expect(finished(await collect(s.run('go', new AbortController().signal))).stopReason).toBe('end_turn');
  // Looks ran before the store wrote its step (the prompt went behind the first request, the database was open: it is there).
  expect(seen.Looks).toEqual(['user']);
  // Acts ran only once every record before it was written, its own step's answer included.
  expect(seen.Acts).toEqual(['user', 'assistant', 'user', 'assistant']);
  store.close();
});
