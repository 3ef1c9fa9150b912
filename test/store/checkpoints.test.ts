/** CheckpointRepo: checkpoint rows, the user prompts a rewind lists, and a conversation branched off. */
import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { openStore } from '../../src/store/index.ts';
import { tempDir } from '../support/temp.ts';

function store() {
  let t = 1000;
  const s = openStore(join(tempDir('moat-store-cp-'), 'moat.db'), { now: () => t++ });
  s.sessions.create({ id: 's', cwd: '/p', projectRoot: '/p', model: 'm', permissionMode: 'default' });
  const user = (text: string, turn: number) => s.messages.append('s', { role: 'user', content: [{ type: 'text', text }] }, turn);
  const assistant = (text: string, turn: number) => s.messages.append('s', { role: 'assistant', content: [{ type: 'text', text }] }, turn);
  user('one', 1);
  assistant('a1', 1);
  user('two', 2);
  assistant('a2', 2);
  s.messages.append('s', { role: 'user', content: [{ type: 'tool_result', toolUseId: 't', content: [{ type: 'text', text: 'r' }], isError: false }] }, 2);
  assistant('a2b', 3);
  user('three', 4);
  return s;
}

test('user prompts are the first message of each turn', () => {
  const s = store();
  expect(s.checkpoints.userPrompts('s').map((p) => [p.seq, p.turn, p.text])).toEqual([
    [1, 1, 'one'],
    [3, 2, 'two'],
    [7, 4, 'three'],
  ]);
});

test('a conversation branched off keeps the whole old conversation and the later checkpoints; the session keeps the rest', () => {
  const s = store();
  s.checkpoints.recordBefore({ sessionId: 's', turn: 1, projectRoot: '/p', commit: 'c1', tree: 't1', leftOut: [] });
  s.checkpoints.recordBefore({ sessionId: 's', turn: 2, projectRoot: '/p', commit: 'c2', tree: 't2', leftOut: [] });
  s.checkpoints.recordAfter('s', 2, 'c3', 't3');
  const branch = s.checkpoints.branchOff('s', 3, 2);
  expect(s.messages.list('s').map((m) => m.seq)).toEqual([1, 2]);
  expect(s.messages.list(branch).map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  expect(s.checkpoints.list('s').map((c) => c.turn)).toEqual([1]);
  expect(s.checkpoints.list(branch).map((c) => [c.turn, c.beforeCommit, c.afterCommit])).toEqual([[2, 'c2', 'c3']]);
  expect(s.sessions.require(branch)).toMatchObject({ branchOf: 's', branchAtSeq: 3, parentId: null });
  expect(s.checkpoints.branches('s').map((b) => b.id)).toEqual([branch]);
  // The session, not its saved branch, is the one to continue.
  expect(s.sessions.latestForCwd('/p')?.id).toBe('s');
  // Deleting the session leaves its saved branch (a session of its own).
  s.sessions.remove('s');
  expect(s.messages.count(branch)).toBe(7);
});

test('branching off a session that is not there is a not_found error', () => {
  const s = store();
  expect(() => s.checkpoints.branchOff('nope', 1, 1)).toThrow('no session with id nope');
});
