import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import {
  buildSessionExport,
  exportSessionJson,
  exportSessionMarkdown,
  openStore,
  type Store,
} from '../../src/store/index.ts';
import { MoatError } from '../../src/util/index.ts';
import { useTmp } from './tmp.ts';

const tmp = useTmp();
const T0 = Date.UTC(2026, 0, 2, 3, 4, 5);

function seeded(): Store {
  let t = T0;
  const store = openStore(join(tmp(), 'moat.db'), { now: () => (t += 1000) });
  store.sessions.create({
    id: 'sess-1',
    cwd: '/repo',
    projectRoot: '/repo',
    gitBranch: 'main',
    model: 'claude-x',
    permissionMode: 'acceptEdits',
  });
  store.messages.append('sess-1', { role: 'user', content: [{ type: 'text', text: 'Show the readme' }] }, 1);
  store.messages.append(
    'sess-1',
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Read it.\nThen answer.', signature: 's' },
        { type: 'text', text: 'Reading it.' },
        { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'README.md' } },
      ],
    },
    1,
  );
  store.toolCalls.record({
    sessionId: 'sess-1',
    toolUseId: 'toolu_1',
    name: 'Read',
    input: { path: 'README.md' },
    result: '# Demo\n```sh\nmake\n```',
    isError: false,
    durationMs: 1500,
    startedAt: T0,
    finishedAt: T0 + 1500,
  });
  store.messages.append(
    'sess-1',
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          toolUseId: 'toolu_1',
          isError: false,
          content: [{ type: 'text', text: '# Demo\n```sh\nmake\n```' }],
        },
      ],
    },
    2,
  );
  store.messages.append('sess-1', { role: 'assistant', content: [{ type: 'text', text: 'It says: run make.' }] }, 2);
  store.usage.record({
    sessionId: 'sess-1',
    turn: 1,
    model: 'claude-x',
    usage: { inputTokens: 120, outputTokens: 30, cacheCreationInputTokens: 10, cacheReadInputTokens: 5 },
    costUsd: 0.0123,
  });
  store.sessions.create({
    id: 'kid-1',
    cwd: '/repo',
    projectRoot: '/repo',
    model: 'claude-x',
    permissionMode: 'default',
    parentId: 'sess-1',
    agentId: 'explore',
  });
  return store;
}

describe('session export', () => {
  test('JSON holds the session, messages, tool calls and usage, and parses back to the same object', () => {
    const store = seeded();
    const built = buildSessionExport(store, 'sess-1');
    expect(JSON.parse(exportSessionJson(store, 'sess-1'))).toEqual(built);
    const iso = (s: number) => new Date(T0 + s * 1000).toISOString();
    expect({ ...built, messages: built.messages.map((m) => [m.seq, m.turn, m.createdAt, m.message.role]) }).toEqual({
      format: 'moat-session',
      version: 1,
      session: {
        id: 'sess-1',
        title: null,
        cwd: '/repo',
        projectRoot: '/repo',
        gitBranch: 'main',
        model: 'claude-x',
        parentId: null,
        agentId: null,
        permissionMode: 'acceptEdits',
        status: 'active',
        todos: [],
        createdAt: iso(1),
        updatedAt: iso(5),
        children: ['kid-1'],
      },
      messages: [
        [1, 1, iso(2), 'user'],
        [2, 1, iso(3), 'assistant'],
        [3, 2, iso(4), 'user'],
        [4, 2, iso(5), 'assistant'],
      ],
      toolCalls: [
        {
          toolUseId: 'toolu_1',
          name: 'Read',
          input: { path: 'README.md' },
          result: '# Demo\n```sh\nmake\n```',
          isError: false,
          durationMs: 1500,
          startedAt: iso(0),
          finishedAt: new Date(T0 + 1500).toISOString(),
        },
      ],
      usage: {
        totals: {
          usage: { inputTokens: 120, outputTokens: 30, cacheCreationInputTokens: 10, cacheReadInputTokens: 5 },
          costUsd: 0.0123,
          turns: 1,
        },
        records: [
          {
            turn: 1,
            model: 'claude-x',
            inputTokens: 120,
            outputTokens: 30,
            cacheCreationInputTokens: 10,
            cacheReadInputTokens: 5,
            costUsd: 0.0123,
            createdAt: iso(6),
          },
        ],
      },
    });
    store.close();
  });

  test('markdown is a readable transcript with fenced tool inputs and results', () => {
    const store = seeded();
    expect(exportSessionMarkdown(store, 'sess-1')).toBe(
      [
        '# Show the readme',
        '',
        '- Session: `sess-1`',
        '- Directory: `/repo` on branch `main`',
        '- Model: claude-x',
        '- Started: 2026-01-02T03:04:06.000Z, last active 2026-01-02T03:04:10.000Z',
        '- Usage: 120 input, 30 output, 5 cache-read, 10 cache-write tokens; $0.0123 over 1 turn',
        '',
        '## User',
        '',
        'Show the readme',
        '',
        '## Assistant',
        '',
        '> *Thinking:* Read it.',
        '> Then answer.',
        '',
        'Reading it.',
        '',
        '**Tool call: Read** (`toolu_1`, 1.5 s)',
        '',
        '```json',
        '{',
        '  "path": "README.md"',
        '}',
        '```',
        '',
        '**Read result:**',
        '',
        // The result contains a ``` fence, so the block uses a longer one.
        '````',
        '# Demo',
        '```sh',
        'make',
        '```',
        '````',
        '',
        '## Assistant',
        '',
        'It says: run make.',
        '',
      ].join('\n'),
    );
    store.close();
  });

  test('exporting an unknown session is not_found', () => {
    const store = seeded();
    expect(() => exportSessionMarkdown(store, 'nope')).toThrow(new MoatError('not_found', 'no session with id nope'));
    expect(() => exportSessionJson(store, 'nope')).toThrow(new MoatError('not_found', 'no session with id nope'));
    store.close();
  });
});
