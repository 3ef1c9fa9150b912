/** PreToolUse callbacks: which run (matchers), how their answers merge, and that a failing one blocks nothing. */
import { describe, expect, test } from 'bun:test';
import { runPreToolUse } from '../../src/agent/hooks.ts';
import type { HookCallback, HookCallbackSet } from '../../src/agent/index.ts';

const input = (tool: string) => ({ hook_event_name: 'PreToolUse', tool_name: tool, tool_input: {}, tool_use_id: 't1' });
const answering = (out: Record<string, unknown>, seen?: string[]): HookCallback => async (i) => {
  seen?.push(String(i['tool_name']));
  return out;
};
const signal = new AbortController().signal;

describe('runPreToolUse', () => {
  test('matchers: a regex over the whole name, * or none for every tool', async () => {
    const seen: string[] = [];
    const set: HookCallbackSet = {
      PreToolUse: [
        { matcher: 'Bash|Edit', callbacks: [answering({}, seen)] },
        { matcher: 'Ba', callbacks: [answering({ decision: 'block' })] },
        { callbacks: [answering({}, seen)] },
        { matcher: '*', callbacks: [answering({}, seen)] },
      ],
    };
    expect(await runPreToolUse(set, input('Bash'), signal)).toEqual({ failures: [] });
    expect(seen).toEqual(['Bash', 'Bash', 'Bash']);
  });

  test('deny beats ask beats allow; the reason is the winner\'s; the last updatedInput is used', async () => {
    const set: HookCallbackSet = {
      PreToolUse: [
        { callbacks: [answering({ hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { a: 1 } } })] },
        { callbacks: [answering({ decision: 'block', reason: 'policy' })] },
        { callbacks: [answering({ hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'check' } })] },
      ],
    };
    expect(await runPreToolUse(set, input('Write'), signal)).toEqual({ failures: [], decision: 'deny', reason: 'policy', updatedInput: { a: 1 } });
  });

  test('a callback that throws is reported and counts as no opinion', async () => {
    const set: HookCallbackSet = {
      PreToolUse: [
        {
          callbacks: [
            async () => {
              throw new Error('hook crashed');
            },
            answering({ decision: 'approve' }),
          ],
        },
      ],
    };
    expect(await runPreToolUse(set, input('Read'), signal)).toEqual({ failures: ['hook crashed'], decision: 'allow' });
  });
});
