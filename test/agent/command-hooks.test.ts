// Claude Code's command-hook contract (exit codes, JSON or plain stdout) and the merging of several hooks' answers.
import { describe, expect, test } from 'bun:test';
import { commandHookCallbacks, hookOutput, runHooks, type HookCallbackSet } from '../../src/agent/index.ts';
import type { HooksConfig } from '../../src/config/index.ts';
import { tempDir } from '../support/temp.ts';

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
    expect(out).toEqual({ blockReason: 'lint failed', context: ['ctx'], stop: 'enough', systemMessages: ['hello'], output: [], failures: ['crashed'], refused: [] });
    expect(await runHooks(set, { hook_event_name: 'Stop' }, new AbortController().signal)).toEqual({ context: [], systemMessages: [], output: [], failures: [], refused: [] });
  });
});

describe('command hooks as processes', () => {
  const commands = (hooks: { command: string; timeoutMs?: number }[]): HookCallbackSet => {
    const cwd = tempDir('moat-hooks-');
    const config: HooksConfig = { PostToolUse: [{ hooks: hooks.map((h) => ({ command: h.command, timeoutMs: h.timeoutMs ?? 5000, source: 'test' })) }] };
    return commandHookCallbacks(config, { cwd, projectRoot: cwd, roots: [cwd], processSandbox: undefined }) ?? {};
  };

  test('the hooks of one event run in parallel; one past its timeout is killed and reported, the others still answer', async () => {
    const set = commands([
      { command: 'sleep 0.6; echo "{\\"systemMessage\\": \\"first\\"}"' },
      { command: 'sleep 0.6; echo "{\\"systemMessage\\": \\"second\\"}"' },
      { command: 'sleep 30', timeoutMs: 1000 },
    ]);
    const started = performance.now();
    const out = await runHooks(set, { hook_event_name: 'PostToolUse' }, new AbortController().signal, 'Edit');
    const elapsed = performance.now() - started;
    expect(out.systemMessages.sort()).toEqual(['first', 'second']);
    expect(out.failures).toEqual(['sleep 30: timed out after 1 s']);
    // Together they end at the killed one's 1 s timeout; one after another they would take 2.2 s.
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(1800);
  });

  test('stdout is shown unless the JSON answer says suppressOutput', async () => {
    const set = commands([{ command: 'echo formatted 3 files' }, { command: `echo '{"suppressOutput": true, "systemMessage": "quiet"}'` }]);
    const out = await runHooks(set, { hook_event_name: 'PostToolUse' }, new AbortController().signal, 'Edit');
    expect(out.output).toEqual([{ command: 'echo formatted 3 files', text: 'formatted 3 files' }]);
    expect(out.systemMessages).toEqual(['quiet']);
  });
});
