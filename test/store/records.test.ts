import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { Message } from '../../src/providers/index.ts';
import { HISTORY_LIMIT, openStore, type Store } from '../../src/store/index.ts';
import { MoatError } from '../../src/util/index.ts';
import { useTmp } from './tmp.ts';

const tmp = useTmp();

function open(): Store {
  let t = 1_700_000_000_000;
  const store = openStore(join(tmp(), 'moat.db'), { now: () => (t += 1000) });
  store.sessions.create({ id: 's1', cwd: '/r', projectRoot: '/r', model: 'm', permissionMode: 'default' });
  store.sessions.create({ id: 's2', cwd: '/r', projectRoot: '/r', model: 'm', permissionMode: 'default' });
  return store;
}

const user: Message = { role: 'user', content: [{ type: 'text', text: 'List files' }] };
const assistant: Message = {
  role: 'assistant',
  content: [
    { type: 'thinking', thinking: 'Use ls.', signature: 'sig==' },
    { type: 'redacted_thinking', data: 'opaque' },
    { type: 'text', text: 'Listing.' },
    { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls', nested: { n: [1, null] } } },
  ],
};
const results: Message = {
  role: 'user',
  content: [
    {
      type: 'tool_result',
      toolUseId: 'toolu_1',
      isError: false,
      content: [
        { type: 'text', text: 'a.txt\nb.txt' },
        { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
      ],
    },
  ],
};

describe('messages', () => {
  test('append numbers messages per session and list returns them exactly', () => {
    const store = open();
    expect([
      store.messages.append('s1', user, 1),
      store.messages.append('s2', user, 1),
      store.messages.append('s1', assistant, 1),
      store.messages.append('s1', results, 2),
    ]).toEqual([1, 1, 2, 3]);
    expect(store.messages.list('s1')).toEqual([
      { sessionId: 's1', seq: 1, turn: 1, createdAt: 1_700_000_003_000, message: user },
      { sessionId: 's1', seq: 2, turn: 1, createdAt: 1_700_000_005_000, message: assistant },
      { sessionId: 's1', seq: 3, turn: 2, createdAt: 1_700_000_006_000, message: results },
    ]);
    expect(store.messages.history('s1')).toEqual([user, assistant, results]);
    expect(store.messages.count('s2')).toBe(1);
    // Each append also marks the session active.
    expect(store.sessions.get('s1')?.updatedAt).toBe(1_700_000_006_000);
    store.close();
  });

  test('each message is durable as soon as append returns (visible to another connection)', () => {
    const store = open();
    store.messages.append('s1', user, 1);
    const reader = openStore(store.path);
    expect(reader.messages.history('s1')).toEqual([user]);
    reader.close();
    store.close();
  });

  test('appending to an unknown session is not_found and writes nothing', () => {
    const store = open();
    let err: unknown;
    try {
      store.messages.append('ghost', user, 1);
    } catch (e) {
      err = e;
    }
    expect([(err as MoatError).code, (err as MoatError).message]).toEqual(['not_found', 'no session with id ghost']);
    expect(store.messages.count('ghost')).toBe(0);
    store.close();
  });
});

describe('tool calls', () => {
  test('record and list, with derived start time; re-recording replaces', () => {
    const store = open();
    store.toolCalls.record({
      sessionId: 's1',
      toolUseId: 'toolu_1',
      name: 'Bash',
      input: { command: 'ls' },
      result: 'a.txt',
      isError: false,
      durationMs: 250,
    });
    store.toolCalls.record({
      sessionId: 's1',
      toolUseId: 'toolu_2',
      name: 'Read',
      input: undefined,
      result: 'File does not exist. Check the path.',
      isError: true,
      durationMs: 2,
      startedAt: 10,
      finishedAt: 12,
    });
    store.toolCalls.record({
      sessionId: 's1',
      toolUseId: 'toolu_1',
      name: 'Bash',
      input: { command: 'ls -a' },
      result: '.\n..\na.txt',
      isError: false,
      durationMs: 300,
      startedAt: 100,
      finishedAt: 400,
    });
    expect(store.toolCalls.list('s1')).toEqual([
      {
        sessionId: 's1',
        toolUseId: 'toolu_2',
        name: 'Read',
        input: null,
        result: 'File does not exist. Check the path.',
        isError: true,
        durationMs: 2,
        startedAt: 10,
        finishedAt: 12,
      },
      {
        sessionId: 's1',
        toolUseId: 'toolu_1',
        name: 'Bash',
        input: { command: 'ls -a' },
        result: '.\n..\na.txt',
        isError: false,
        durationMs: 300,
        startedAt: 100,
        finishedAt: 400,
      },
    ]);
    expect(store.toolCalls.list('s2')).toEqual([]);
    store.close();
  });
});

describe('usage', () => {
  test('totals sum every record and count distinct turns', () => {
    const store = open();
    const u = (i: number, o: number, cc: number, cr: number) => ({
      inputTokens: i,
      outputTokens: o,
      cacheCreationInputTokens: cc,
      cacheReadInputTokens: cr,
    });
    expect(store.usage.totals('s1')).toEqual({ usage: u(0, 0, 0, 0), costUsd: 0, turns: 0 });
    store.usage.record({ sessionId: 's1', turn: 1, model: 'm', usage: u(100, 20, 5, 0), costUsd: 0.25 });
    // A retried turn records twice.
    store.usage.record({ sessionId: 's1', turn: 1, model: 'm', usage: u(10, 2, 0, 50), costUsd: 0.125 });
    store.usage.record({ sessionId: 's1', turn: 2, model: 'm2', usage: u(1, 1, 1, 1), costUsd: 0.5 });
    store.usage.record({ sessionId: 's2', turn: 1, model: 'm', usage: u(9, 9, 9, 9), costUsd: 9 });
    expect(store.usage.totals('s1')).toEqual({ usage: u(111, 23, 6, 51), costUsd: 0.875, turns: 2 });
    expect(store.usage.list('s1').map((r) => [r.turn, r.model, r.costUsd])).toEqual([
      [1, 'm', 0.25],
      [1, 'm', 0.125],
      [2, 'm2', 0.5],
    ]);
    store.close();
  });
});

describe('prompt history', () => {
  test('per project, newest first, skipping blanks and immediate repeats', () => {
    const store = open();
    for (const t of ['first', 'second', 'second', '   ', 'first', 'third']) store.history.add('/proj', t);
    store.history.add('/other', 'elsewhere');
    expect(store.history.list('/proj', 10)).toEqual(['third', 'first', 'second', 'first']);
    expect(store.history.list('/proj', 2)).toEqual(['third', 'first']);
    expect(store.history.list('/other', 10)).toEqual(['elsewhere']);
    expect(store.history.list('/none', 10)).toEqual([]);
    store.close();
  });

  test(`keeps the newest ${HISTORY_LIMIT} entries per project`, () => {
    const store = open();
    for (let i = 1; i <= HISTORY_LIMIT + 5; i++) store.history.add('/proj', `p${i}`);
    store.history.add('/other', 'kept');
    const all = store.history.list('/proj', HISTORY_LIMIT + 100);
    expect([all.length, all[0], all.at(-1)]).toEqual([HISTORY_LIMIT, `p${HISTORY_LIMIT + 5}`, 'p6']);
    expect(store.history.list('/other', 10)).toEqual(['kept']);
    store.close();
  });
});
