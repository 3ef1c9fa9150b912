import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { openStore, type Store } from '../../src/store/index.ts';
import { MoatError } from '../../src/util/index.ts';
import { useTmp } from './tmp.ts';

const tmp = useTmp();

/** A store with a clock that advances 1 s per read, so ordering is deterministic. */
function open(): { store: Store; clock: { t: number } } {
  const clock = { t: 1_700_000_000_000 };
  const store = openStore(join(tmp(), 'moat.db'), { now: () => (clock.t += 1000) });
  return { store, clock };
}

const base = { cwd: '/repo/sub', projectRoot: '/repo', model: 'claude-x', permissionMode: 'default' };

function caught(f: () => unknown): MoatError {
  try {
    f();
  } catch (e) {
    if (e instanceof MoatError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('sessions', () => {
  test('create returns the full row and get reads it back', () => {
    const { store } = open();
    const row = store.sessions.create({ ...base, id: 'abc', gitBranch: 'main', title: 'Fix it' });
    expect(row).toEqual({
      id: 'abc',
      cwd: '/repo/sub',
      projectRoot: '/repo',
      gitBranch: 'main',
      model: 'claude-x',
      title: 'Fix it',
      parentId: null,
      agentId: null,
      createdAt: 1_700_000_001_000,
      updatedAt: 1_700_000_001_000,
      permissionMode: 'default',
      todos: [],
      status: 'active',
      historyStartSeq: 0,
      branchOf: null,
      branchAtSeq: null,
    });
    expect(store.sessions.get('abc')).toEqual(row);
    expect(store.sessions.get('nope')).toBeUndefined();
    store.close();
  });

  test('a duplicate id or an unknown parent is a clear error', () => {
    const { store } = open();
    store.sessions.create({ ...base, id: 'dup' });
    const dup = caught(() => store.sessions.create({ ...base, id: 'dup' }));
    const orphan = caught(() => store.sessions.create({ ...base, id: 'kid', parentId: 'ghost' }));
    expect([dup.code, dup.message, orphan.code, orphan.message]).toEqual([
      'store',
      'a session with id dup already exists',
      'not_found',
      'no parent session with id ghost',
    ]);
    expect(store.sessions.list({ all: true, includeChildren: true }).map((s) => s.id)).toEqual(['dup']);
    store.close();
  });

  test('generated ids are UUIDs', () => {
    const { store } = open();
    expect(store.sessions.create(base).id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    store.close();
  });

  test('setters update the row and bump updated_at; a missing id is not_found', () => {
    const { store } = open();
    store.sessions.create({ ...base, id: 's' });
    store.sessions.setTitle('s', 'New title');
    store.sessions.setTodos('s', [
      { content: 'Write tests', status: 'in_progress', activeForm: 'Writing tests' },
      { content: 'Ship', status: 'pending' },
    ]);
    store.sessions.setStatus('s', 'aborted');
    store.sessions.setModel('s', 'claude-y');
    store.sessions.setPermissionMode('s', 'acceptEdits');
    store.sessions.touch('s');
    const row = store.sessions.get('s');
    expect(row).toEqual({
      id: 's',
      cwd: '/repo/sub',
      projectRoot: '/repo',
      gitBranch: null,
      model: 'claude-y',
      title: 'New title',
      parentId: null,
      agentId: null,
      createdAt: 1_700_000_001_000,
      updatedAt: 1_700_000_007_000,
      permissionMode: 'acceptEdits',
      todos: [
        { content: 'Write tests', status: 'in_progress', activeForm: 'Writing tests' },
        { content: 'Ship', status: 'pending' },
      ],
      status: 'aborted',
      historyStartSeq: 0,
      branchOf: null,
      branchAtSeq: null,
    });
    const e = caught(() => store.sessions.setTitle('missing', 'x'));
    expect([e.code, e.message]).toEqual(['not_found', 'no session with id missing']);
    store.close();
  });

  test('latestForCwd is the most recently active top-level session in that directory', () => {
    const { store } = open();
    store.sessions.create({ ...base, id: 'old' });
    store.sessions.create({ ...base, id: 'new' });
    store.sessions.create({ ...base, id: 'elsewhere', cwd: '/other' });
    store.sessions.create({ ...base, id: 'child', parentId: 'old', agentId: 'explore-1' });
    expect(store.sessions.latestForCwd('/repo/sub')?.id).toBe('new');
    // Writing a message makes a session the latest.
    store.messages.append('old', { role: 'user', content: [{ type: 'text', text: 'again' }] }, 1);
    expect(store.sessions.latestForCwd('/repo/sub')?.id).toBe('old');
    expect(store.sessions.latestForCwd('/nowhere')).toBeUndefined();
    store.close();
  });

  test('list filters by cwd, hides sub-agents unless asked, orders newest first, and summarises', () => {
    const { store } = open();
    store.sessions.create({ ...base, id: 'a' });
    store.sessions.create({ ...base, id: 'b', cwd: '/other' });
    store.sessions.create({ ...base, id: 'c' });
    store.sessions.create({ ...base, id: 'child', parentId: 'a' });
    store.messages.append('a', { role: 'user', content: [{ type: 'text', text: '  Fix the\n  flaky test please ' }] }, 1);
    store.messages.append('a', { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }, 1);

    const brief = (items: ReturnType<Store['sessions']['list']>) =>
      items.map((s) => ({ id: s.id, messageCount: s.messageCount, firstPrompt: s.firstPrompt }));
    expect(brief(store.sessions.list({ cwd: '/repo/sub' }))).toEqual([
      { id: 'a', messageCount: 2, firstPrompt: 'Fix the flaky test please' },
      { id: 'c', messageCount: 0, firstPrompt: null },
    ]);
    expect(store.sessions.list({ cwd: '/repo/sub', all: true }).map((s) => s.id)).toEqual(['a', 'c', 'b']);
    expect(store.sessions.list({ all: true, includeChildren: true }).map((s) => s.id)).toEqual(['a', 'child', 'c', 'b']);
    expect(store.sessions.list({ all: true, limit: 1 }).map((s) => s.id)).toEqual(['a']);
    expect(store.sessions.children('a').map((s) => s.id)).toEqual(['child']);
    store.close();
  });

  test('a long first prompt is shortened to one line of 80 characters', () => {
    const { store } = open();
    store.sessions.create({ ...base, id: 'a' });
    store.messages.append('a', { role: 'user', content: [{ type: 'text', text: 'x'.repeat(200) }] }, 1);
    expect(store.sessions.list()[0]?.firstPrompt).toBe(`${'x'.repeat(79)}…`);
    store.close();
  });

  test('remove cascades to messages, tool calls, usage and sub-agent sessions', () => {
    const { store } = open();
    store.sessions.create({ ...base, id: 'p' });
    store.sessions.create({ ...base, id: 'kid', parentId: 'p' });
    store.sessions.create({ ...base, id: 'other' });
    for (const id of ['p', 'kid', 'other']) {
      store.messages.append(id, { role: 'user', content: [{ type: 'text', text: 'hi' }] }, 1);
      store.toolCalls.record({ sessionId: id, toolUseId: 't1', name: 'Read', input: {}, result: 'ok', isError: false, durationMs: 3 });
      store.usage.record({
        sessionId: id,
        turn: 1,
        model: 'm',
        usage: { inputTokens: 1, outputTokens: 1, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 },
        costUsd: 0.01,
      });
    }
    expect(store.sessions.remove('p')).toBe(true);
    expect(store.sessions.remove('p')).toBe(false);
    const left = (id: string) => [
      store.sessions.get(id) !== undefined,
      store.messages.count(id),
      store.toolCalls.list(id).length,
      store.usage.totals(id).turns,
    ];
    expect([left('p'), left('kid'), left('other')]).toEqual([
      [false, 0, 0, 0],
      [false, 0, 0, 0],
      [true, 1, 1, 1],
    ]);
    store.close();
  });

  test('resolvePrefix: unique prefix, exact id, ambiguous, unknown, empty', () => {
    const { store } = open();
    for (const id of ['3f2a0000-aaaa', '3f2b0000-bbbb', '3f2b0000-cccc', '9abc']) store.sessions.create({ ...base, id });
    expect(store.sessions.resolvePrefix('3f2a')).toBe('3f2a0000-aaaa');
    expect(store.sessions.resolvePrefix(' 3F2A ')).toBe('3f2a0000-aaaa');
    expect(store.sessions.resolvePrefix('3f2b0000-c')).toBe('3f2b0000-cccc');
    expect(store.sessions.resolvePrefix('9abc')).toBe('9abc');
    const amb = caught(() => store.sessions.resolvePrefix('3f2'));
    expect([amb.code, amb.message]).toEqual([
      'usage',
      "session id '3f2' is ambiguous: it matches 3f2a0000-aaaa, 3f2b0000-bbbb, 3f2b0000-cccc",
    ]);
    const none = caught(() => store.sessions.resolvePrefix('ffff'));
    expect([none.code, none.message]).toEqual(['not_found', "no session matches 'ffff'"]);
    const empty = caught(() => store.sessions.resolvePrefix('  '));
    expect([empty.code, empty.message]).toEqual(['usage', 'empty session id']);
    store.close();
  });
});
