// Claude Code's command-hook contract (exit codes, JSON or plain stdout) and the merging of several hooks' answers.
import { describe, expect, test } from 'bun:test';
import { hookOutput, runHooks, type HookCallbackSet } from '../../src/agent/index.ts';

const ran = (exitCode: number | null, stdout = '', stderr = '', timedOut = false) => ({ exitCode, stdout, stderr, timedOut });

describe('hookOutput', () => {
  test('exit 0: JSON on stdout is the answer; plain text is context only where Claude Code makes it so', () => {
    expect(hookOutput('PreToolUse', ran(0, '{"decision":"block","reason":"r"}\n'), 'h', 1000)).toEqual({ decision: 'block', reason: 'r' });
    expect(hookOutput('UserPromptSubmit', ran(0, 'today is Tuesday\n'), 'h', 1000)).toEqual({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'today is Tuesday' } });
    expect(hookOutput('SessionStart', ran(0, '{not json'), 'h', 1000)).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: '{not json' } });
    expect(hookOutput('PostToolUse', ran(0, 'formatted 3 files\n'), 'h', 1000)).toEqual({});
    expect(hookOutput('Stop', ran(0, '[1,2]'), 'h', 1000)).toEqual({});
  });

  test('exit 2 blocks with stderr as the reason (a PreToolUse block is a deny); other exits and timeouts are failures', () => {
    expect(hookOutput('PreToolUse', ran(2, '', 'no rm\n'), 'h', 1000)).toEqual({
      decision: 'block',
      reason: 'no rm',
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'no rm' },
    });
    expect(hookOutput('Stop', ran(2), './h.sh', 1000)).toEqual({ decision: 'block', reason: 'blocked by the hook ./h.sh' });
    expect(() => hookOutput('Stop', ran(1, '', 'oops\nmore'), './h.sh', 1000)).toThrow('./h.sh: exit 1: oops');
    expect(() => hookOutput('Stop', ran(null, '', '', true), './h.sh', 5000)).toThrow('./h.sh: timed out after 5 s');
  });
});

describe('runHooks', () => {
  test('matchers pick the groups; blocks, contexts, stop and messages merge; a failure is only reported', async () => {
    const set: HookCallbackSet = {
      PostToolUse: [
        { matcher: 'Edit|Write', callbacks: [async () => ({ decision: 'block', reason: 'lint failed' }), async () => ({ hookSpecificOutput: { additionalContext: 'ctx' } })] },
        { matcher: 'Bash', callbacks: [async () => ({ decision: 'block', reason: 'not me' })] },
        { callbacks: [async () => ({ systemMessage: 'hello', continue: false, stopReason: 'enough' }), async () => Promise.reject(new Error('crashed'))] },
      ],
    };
    const out = await runHooks(set, { hook_event_name: 'PostToolUse' }, new AbortController().signal, 'Write');
    expect(out).toEqual({ blockReason: 'lint failed', context: ['ctx'], stop: 'enough', systemMessages: ['hello'], failures: ['crashed'] });
    expect(await runHooks(set, { hook_event_name: 'Stop' }, new AbortController().signal)).toEqual({ context: [], systemMessages: [], failures: [] });
  });
});
