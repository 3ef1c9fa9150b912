import { describe, expect, test } from 'bun:test';
import { INTERRUPTED_RESULT, mergeConsecutiveUsers, repairHistory } from '../../src/agent/history.ts';
import type { Message } from '../../src/providers/index.ts';

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const callTools = (...ids: string[]): Message => ({
  role: 'assistant',
  content: ids.map((id) => ({ type: 'tool_use', id, name: 'Bash', input: { command: 'sleep 1' } })),
});
const interrupted = (id: string) => ({
  type: 'tool_result' as const,
  toolUseId: id,
  content: [{ type: 'text' as const, text: INTERRUPTED_RESULT }],
  isError: true,
});

describe('repairHistory', () => {
  test('a valid history is left alone', () => {
    const h: Message[] = [user('hi'), { role: 'assistant', content: [{ type: 'text', text: 'yo' }] }];
    expect(repairHistory(h)).toEqual({ messages: h, repaired: false });
  });

  test('a trailing tool_use without results (kill -9 mid-tool) gets interrupted results', () => {
    const h = [user('run'), callTools('t1', 't2')];
    expect(repairHistory(h)).toEqual({
      messages: [...h, { role: 'user', content: [interrupted('t1'), interrupted('t2')] }],
      repaired: true,
    });
  });

  test('missing results in the next user message are filled in, results first', () => {
    const partial: Message = {
      role: 'user',
      content: [
        { type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: 'ok' }], isError: false },
        { type: 'text', text: 'and then' },
      ],
    };
    const h = [user('run'), callTools('t1', 't2'), partial];
    const { messages, repaired } = repairHistory(h);
    expect(repaired).toBe(true);
    expect(messages[2]).toEqual({
      role: 'user',
      content: [partial.content[0]!, interrupted('t2'), { type: 'text', text: 'and then' }],
    } as Message);
    // the input was not mutated
    expect(h[2]).toBe(partial);
  });
});

describe('mergeConsecutiveUsers', () => {
  test('merges a new prompt into a trailing tool-result message', () => {
    const results: Message = { role: 'user', content: [interrupted('t1')] };
    expect(mergeConsecutiveUsers([user('a'), callTools('t1'), results, user('b')])).toEqual([
      user('a'),
      callTools('t1'),
      { role: 'user', content: [interrupted('t1'), { type: 'text', text: 'b' }] },
    ]);
  });
});
