import { afterEach, describe, expect, test } from 'bun:test';
import type { AgentEvent } from '../../src/agent/index.ts';
import { deltas, finished } from './fake-client.ts';
import { KEYS, start, unmountAll, waitFor } from './harness.tsx';

afterEach(unmountAll);


const PATCH = '--- a.ts\n+++ a.ts\n@@ -1,2 +1,2 @@\n-const a = 1;\n+const a = 2;\n keep();\n';
const HUNKS = [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: ['-const a = 1;', '+const a = 2;', ' keep();'] }];
const editRequest = (n: number): AgentEvent[] => [
  { type: 'tool_call_started', toolUseId: `tu${n}`, name: 'Edit', index: 1 },
  { type: 'tool_call_delta', toolUseId: `tu${n}`, partialJson: '{"file_path":"/work/project/a.ts",', index: 1 },
  { type: 'tool_call_delta', toolUseId: `tu${n}`, partialJson: '"old_string":"const a = 1;","new_string":"const a = 2;"}', index: 1 },
  { type: 'tool_call_ready', toolUseId: `tu${n}`, name: 'Edit', input: { file_path: '/work/project/a.ts', old_string: 'const a = 1;', new_string: 'const a = 2;' } },
  {
    type: 'permission_request',
    requestId: `req${n}`,
    toolUseId: `tu${n}`,
    toolName: 'Edit',
    intent: { ruleName: 'Edit', subject: '/work/project/a.ts', paths: [{ path: '/work/project/a.ts', access: 'write' }], summary: 'Edit a.ts', preview: { type: 'diff', path: '/work/project/a.ts', patch: PATCH, hunks: HUNKS, added: 1, removed: 1, created: false } },
  },
];

async function send(h: ReturnType<typeof start>, text: string) {
  await h.until('Ask moat');
  await h.type(text);
  await h.press(KEYS.enter);
}

describe('transcript', () => {
  test('a prompt streams a markdown answer into the transcript', async () => {
    const h = start((c) => c.scripts.push([{ type: 'turn_started', turn: 1 }, ...deltas('# Title\n\nSome **bold** text.\n\n- one\n- two\n'), finished('end_turn')]));
    await send(h, 'hello there');
    await h.until('two');
    await waitFor(() => h.app.transcript.run.get().phase === 'idle', 'idle');
    await h.until('Ask moat');
    expect(h.controller.prompts[0]?.text).toBe('hello there');
    expect(h.frame()).toMatchSnapshot();
  });

  test('thinking collapses to one line and expands on Ctrl-O', async () => {
    const h = start((c) =>
      c.scripts.push([{ type: 'turn_started', turn: 1 }, { type: 'thinking_delta', turn: 1, index: 0, thinking: 'Let me consider\nthe secret plan' }, ...deltas('Answer.'), finished('end_turn')]),
    );
    await send(h, 'think');
    await h.until('Answer.');
    await h.until('Ask moat');
    expect(h.frame()).toContain('✻ Thought');
    expect(h.frame()).not.toContain('secret plan');
    await h.press(KEYS.ctrlO);
    await h.until('secret plan');
  });

  test('a retry drops the failed attempt and says so', async () => {
    const h = start((c) =>
      c.scripts.push([
        { type: 'turn_started', turn: 1 },
        ...deltas('partial that will be dropped'),
        { wait: 30 },
        { type: 'retry', turn: 1, attempt: 1, maxRetries: 4, delayMs: 1000, message: 'The API is overloaded', kind: 'overloaded', status: 529 },
        ...deltas('Final answer.'),
        finished('end_turn'),
      ]),
    );
    await send(h, 'go');
    await h.until('Final answer.');
    await h.until('Ask moat');
    expect(h.frame()).toContain('The API is overloaded — retrying in 1.0 s (attempt 1).');
    expect(h.frame()).not.toContain('partial that will be dropped');
  });

  test('an error ends the run with one readable line', async () => {
    const h = start((c) => c.scripts.push([{ type: 'turn_started', turn: 1 }, finished('error', 'authentication failed: check ANTHROPIC_API_KEY')]));
    await send(h, 'go');
    await h.until('✗ authentication failed: check ANTHROPIC_API_KEY');
  });

  test('todos show above the prompt while running and are kept at the end', async () => {
    const h = start((c) =>
      c.scripts.push([
        { type: 'turn_started', turn: 1 },
        { type: 'todos', items: [{ content: 'Write tests', status: 'in_progress', activeForm: 'Writing tests' }, { content: 'Ship', status: 'pending' }] },
        { wait: 150 },
        { type: 'todos', items: [{ content: 'Write tests', status: 'completed' }, { content: 'Ship', status: 'in_progress', activeForm: 'Shipping' }] },
        { wait: 150 },
        finished('end_turn'),
      ]),
    );
    await send(h, 'plan');
    await h.until('◐ Writing tests');
    await h.until('◐ Shipping');
    await waitFor(() => h.app.transcript.run.get().phase === 'idle', 'idle');
    await h.until('☒ Write tests');
  });

  test('usage updates the context share and cost in the status line', async () => {
    const h = start((c) =>
      c.scripts.push([
        { type: 'turn_started', turn: 1 },
        ...deltas('ok'),
        { type: 'usage', turn: 1, turnUsage: { inputTokens: 30_000, outputTokens: 100, cacheCreationInputTokens: 0, cacheReadInputTokens: 20_000 }, sessionUsage: { inputTokens: 30_000, outputTokens: 100, cacheCreationInputTokens: 0, cacheReadInputTokens: 20_000 }, turnCostUsd: 0.25, sessionCostUsd: 1.5 },
        finished('end_turn'),
      ]),
    );
    await send(h, 'go');
    await h.until('ctx 25% · $1.50');
  });

  test('a resumed session shows its earlier messages', async () => {
    const h = start((c) => {
      c.earlier = [
        { role: 'user', content: [{ type: 'text', text: 'earlier question' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'earlier **answer**' }, { type: 'tool_use', id: 'x1', name: 'Bash', input: { command: 'ls' } }] },
        { role: 'user', content: [{ type: 'tool_result', toolUseId: 'x1', isError: false, content: [{ type: 'text', text: 'a\nb' }] }] },
      ];
    });
    await h.until('Resumed session');
    expect(h.frame()).toContain('> earlier question');
    expect(h.frame()).toContain('earlier answer');
    expect(h.frame()).toContain('Bash(ls)');
  });
});

describe('approvals', () => {
  test('the dialog shows the diff; allow once answers allow', async () => {
    const h = start((c) =>
      c.scripts.push([
        { type: 'turn_started', turn: 1 },
        ...editRequest(1),
        { awaitPermission: 'req1' },
        { type: 'tool_started', toolUseId: 'tu1', name: 'Edit' },
        { type: 'tool_finished', toolUseId: 'tu1', name: 'Edit', content: 'ok', isError: false, durationMs: 3, display: { type: 'diff', path: '/work/project/a.ts', patch: PATCH, hunks: HUNKS, added: 1, removed: 1, created: false } },
        finished('end_turn'),
      ]),
    );
    await send(h, 'edit it');
    await h.until('Change a file');
    expect(h.frame()).toMatchSnapshot();
    await h.press(KEYS.enter);
    await h.until('Updated a.ts with 1 addition and 1 removal');
    expect(h.controller.decisions).toEqual([{ requestId: 'req1', decision: { behavior: 'allow' } }]);
  });

  test('option 2 remembers the rule for the project', async () => {
    const h = start((c) => c.scripts.push([{ type: 'turn_started', turn: 1 }, ...editRequest(1), { awaitPermission: 'req1' }, finished('end_turn')]));
    await send(h, 'edit it');
    await h.until('Change a file');
    await h.press('2');
    await waitFor(() => h.controller.decisions.length === 1, 'decision');
    expect(h.controller.decisions[0]?.decision).toEqual({ behavior: 'allow', remember: 'project' });
  });

  test('Esc denies', async () => {
    const h = start((c) => c.scripts.push([{ type: 'turn_started', turn: 1 }, ...editRequest(1), { awaitPermission: 'req1' }, finished('end_turn')]));
    await send(h, 'edit it');
    await h.until('Change a file');
    await h.press(KEYS.esc);
    await waitFor(() => h.controller.decisions.length === 1, 'decision');
    expect(h.controller.decisions[0]?.decision).toEqual({ behavior: 'deny' });
  });

  test('deny with a message sends the message', async () => {
    const h = start((c) => c.scripts.push([{ type: 'turn_started', turn: 1 }, ...editRequest(1), { awaitPermission: 'req1' }, finished('end_turn')]));
    await send(h, 'edit it');
    await h.until('Change a file');
    await h.press(KEYS.down);
    await h.press(KEYS.down);
    await h.press(KEYS.down);
    await h.press(KEYS.enter);
    await h.until('No, and tell moat:');
    h.stdin.write('use b.ts');
    await h.until('tell moat: use b.ts');
    await h.press(KEYS.enter);
    await waitFor(() => h.controller.decisions.length === 1, 'decision');
    expect(h.controller.decisions[0]?.decision).toEqual({ behavior: 'deny', message: 'use b.ts' });
  });
});

describe('control', () => {
  test('Esc interrupts, keeps the partial answer, and the next prompt works', async () => {
    const h = start((c) => {
      c.scripts.push([{ type: 'turn_started', turn: 1 }, ...deltas('The partial answer.\n\nMore'), { awaitAbort: true }]);
      c.scripts.push([{ type: 'turn_started', turn: 2 }, ...deltas('Second answer.'), finished('end_turn')]);
    });
    await send(h, 'first');
    await h.until('More');
    await h.press(KEYS.esc);
    await h.until('Interrupted');
    await waitFor(() => h.app.transcript.run.get().phase === 'idle', 'idle');
    expect(h.frame()).toContain('The partial answer.');
    expect(h.frame()).toContain('More');
    await send(h, 'second');
    await h.until('Second answer.');
    expect(h.exited()).toBe(0);
  });

  test('/compact [instructions] compacts through the session port and shows the notice with the tokens before and after', async () => {
    const h = start((c) => {
      c.scripts.push([{ type: 'notice', level: 'info', message: 'context compacted: 4 messages summarized (52,000 → 900 tokens)' }, finished('end_turn')]);
      c.scripts.push([{ type: 'turn_started', turn: 2 }, ...deltas('After the summary.'), finished('end_turn')]);
    });
    await send(h, '/compact keep the file names');
    await h.until('context compacted: 4 messages summarized (52,000 → 900 tokens)');
    await waitFor(() => h.app.transcript.run.get().phase === 'idle', 'idle');
    expect(h.controller.compactions).toEqual(['keep the file names']);
    expect(h.controller.prompts).toHaveLength(0);
    await send(h, 'next');
    await h.until('After the summary.');
    expect(h.controller.prompts.map((p) => p.text)).toEqual(['next']);
  });

  test('/compact alone sends no instructions; a failure is one error line', async () => {
    const h = start((c) => c.scripts.push([finished('error', 'nothing to compact yet: the conversation is empty')]));
    await send(h, '/compact');
    await h.until('✗ nothing to compact yet: the conversation is empty');
    expect(h.controller.compactions).toEqual([undefined]);
  });

  test('Ctrl-C clears the input, a second Ctrl-C within 2 s exits', async () => {
    const h = start();
    await h.until('Ask moat');
    await h.type('some text');
    await h.press(KEYS.ctrlC);
    await h.until('Press Ctrl-C again to exit');
    expect(h.app.ui.get().editor.value).toBe('');
    expect(h.exited()).toBe(0);
    await h.press(KEYS.ctrlC);
    await waitFor(() => h.exited() === 1, 'exit');
  });

  test('Ctrl-D exits on an empty prompt only', async () => {
    const h = start();
    await h.until('Ask moat');
    await h.type('ab');
    await h.press(KEYS.left);
    await h.press(KEYS.ctrlD);
    await waitFor(() => h.app.ui.get().editor.value === 'a', 'delete forward');
    expect(h.exited()).toBe(0);
    await h.press(KEYS.ctrlU);
    await h.press(KEYS.ctrlD);
    await waitFor(() => h.exited() === 1, 'exit');
  });

  test('Shift-Tab cycles the permission mode', async () => {
    const h = start();
    await h.until('Ask moat');
    await h.press(KEYS.shiftTab);
    await h.until('accept edits');
    await h.press(KEYS.shiftTab);
    await h.until('plan mode');
    await h.press(KEYS.shiftTab);
    await h.until('Shift-Tab: mode');
    expect(h.controller.modes).toEqual(['acceptEdits', 'plan', 'default']);
  });
});
