/** PreToolUse callbacks: which run (matchers), how their answers merge, and that a failing one blocks nothing. */
import { describe, expect, test } from 'bun:test';
import { HOOK_STDOUT, runHooks, runPreToolUse } from '../../src/agent/hooks.ts';
import type { HookCallback, HookCallbackSet } from '../../src/agent/index.ts';

const NOTHING = { context: [], systemMessages: [], output: [], failures: [], refused: [] };

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
    expect(await runPreToolUse(set, input('Bash'), signal)).toEqual(NOTHING);
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
    expect(await runPreToolUse(set, input('Write'), signal)).toEqual({ ...NOTHING, decision: 'deny', reason: 'policy', updatedInput: { a: 1 } });
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
    expect(await runPreToolUse(set, input('Read'), signal)).toEqual({ ...NOTHING, failures: ['hook crashed'], decision: 'allow' });
  });

  test('continue: false with its stopReason, additionalContext and systemMessage are kept beside the decision', async () => {
    const set: HookCallbackSet = {
      PreToolUse: [
        {
          callbacks: [
            answering({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'allow', additionalContext: 'the tests live in test/' } }),
            answering({ continue: false, stopReason: 'release freeze', systemMessage: 'stopping: release freeze' }),
          ],
        },
      ],
    };
    expect(await runPreToolUse(set, input('Bash'), signal)).toEqual({
      ...NOTHING,
      decision: 'allow',
      stop: 'release freeze',
      context: ['the tests live in test/'],
      systemMessages: ['stopping: release freeze'],
    });
  });
});

describe('runHooks: stdout and matchers', () => {
  test("a command hook's stdout is kept for verbose output unless its answer says suppressOutput", async () => {
    const set: HookCallbackSet = {
      PostToolUse: [
        {
          callbacks: [
            async () => ({ [HOOK_STDOUT]: { command: 'fmt', text: 'formatted 3 files' } }),
            async () => ({ suppressOutput: true, [HOOK_STDOUT]: { command: 'quiet', text: '{"suppressOutput":true}' } }),
          ],
        },
      ],
    };
    const out = await runHooks(set, { hook_event_name: 'PostToolUse' }, signal, 'Edit');
    expect(out.output).toEqual([{ command: 'fmt', text: 'formatted 3 files' }]);
    // The symbol never reaches JSON: a program's copy of the answer has no stdout to forge or leak.
    expect(JSON.stringify({ [HOOK_STDOUT]: { command: 'x', text: 'y' } })).toBe('{}');
  });

  test('matchers of events without a tool match what Claude Code matches there (SessionStart source, PreCompact trigger)', async () => {
    const seen: string[] = [];
    const set: HookCallbackSet = {
      SessionStart: [
        { matcher: 'startup', callbacks: [async () => (seen.push('startup'), {})] },
        { matcher: 'resume|compact', callbacks: [async () => (seen.push('resume|compact'), {})] },
        { callbacks: [async () => (seen.push('any'), {})] },
      ],
    };
    await runHooks(set, { hook_event_name: 'SessionStart', source: 'compact' }, signal, 'compact');
    expect(seen.sort()).toEqual(['any', 'resume|compact']);
  });
});
