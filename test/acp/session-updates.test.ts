/** moat's events and a saved conversation as ACP session updates: chunks, tool calls with kind, title, locations and diffs, the plan. */
import { describe, expect, test } from 'bun:test';
import { replayUpdates, UpdateMapper } from '../../src/acp/session-updates.ts';

describe('UpdateMapper', () => {
  test('text and thinking stream as chunks; a tool call carries kind, title, location, its diff, then its status', () => {
    const m = new UpdateMapper('/work');
    expect(m.map({ type: 'text_delta', turn: 1, index: 0, text: 'Hi' })).toEqual([{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hi' } }]);
    expect(m.map({ type: 'thinking_delta', turn: 1, index: 0, thinking: 'hmm' })).toEqual([{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hmm' } }]);
    const input = { file_path: 'src/a.ts', old_string: 'x', new_string: 'y' };
    expect(m.map({ type: 'tool_call_ready', toolUseId: 't1', name: 'Edit', input })).toEqual([
      {
        sessionUpdate: 'tool_call',
        toolCallId: 't1',
        title: 'Edit src/a.ts',
        kind: 'edit',
        status: 'pending',
        locations: [{ path: '/work/src/a.ts' }],
        content: [{ type: 'diff', path: '/work/src/a.ts', oldText: 'x', newText: 'y' }],
        rawInput: input,
      },
    ]);
    expect(m.map({ type: 'tool_started', toolUseId: 't1', name: 'Edit' })).toEqual([{ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress' }]);
    const display = { type: 'diff' as const, path: '/work/src/a.ts', patch: '', hunks: [{ oldStart: 3, oldLines: 2, newStart: 3, newLines: 2, lines: [' keep', '-x', '+y'] }], added: 1, removed: 1, created: false };
    expect(m.map({ type: 'tool_finished', toolUseId: 't1', name: 'Edit', content: 'Edited', isError: false, display, durationMs: 3 })).toEqual([
      { sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', content: [{ type: 'diff', path: '/work/src/a.ts', oldText: 'keep\nx', newText: 'keep\ny' }], rawOutput: 'Edited' },
    ]);
  });

  test("a command in the editor's terminal shows the terminal, not a copy of its output; a failure adds why", () => {
    const terminals = new Map([['t2', 'term-7']]);
    const m = new UpdateMapper('/work', terminals);
    const running = { type: 'command' as const, command: 'ls', exitCode: null, durationMs: 0, output: '' };
    expect(m.map({ type: 'tool_update', toolUseId: 't2', display: running })).toEqual([{ sessionUpdate: 'tool_call_update', toolCallId: 't2', content: [{ type: 'terminal', terminalId: 'term-7' }] }]);
    const done = { ...running, exitCode: 0, output: 'a.txt' };
    expect(m.map({ type: 'tool_finished', toolUseId: 't2', name: 'Bash', content: 'a.txt', isError: false, display: done, durationMs: 5 })).toEqual([
      { sessionUpdate: 'tool_call_update', toolCallId: 't2', status: 'completed', content: [{ type: 'terminal', terminalId: 'term-7' }], rawOutput: 'a.txt' },
    ]);
    terminals.set('t3', 'term-8');
    expect(m.map({ type: 'tool_finished', toolUseId: 't3', name: 'Bash', content: 'Exit code 1', isError: true, display: { ...done, exitCode: 1 }, durationMs: 5 })).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 't3',
        status: 'failed',
        content: [{ type: 'terminal', terminalId: 'term-8' }, { type: 'content', content: { type: 'text', text: 'Exit code 1' } }],
        rawOutput: 'Exit code 1',
      },
    ]);
    // A call without a terminal is shown as before.
    expect(m.map({ type: 'tool_update', toolUseId: 't4', display: done })[0]).toMatchObject({ content: [{ type: 'content' }] });
  });

  test('a Read names its line; a failed call shows why; a command its output; the todo list is the plan', () => {
    const m = new UpdateMapper('/work');
    expect(m.map({ type: 'tool_call_ready', toolUseId: 'r', name: 'Read', input: { file_path: '/abs/f.ts', offset: 40 } })[0]).toMatchObject({ kind: 'read', locations: [{ path: '/abs/f.ts', line: 40 }] });
    expect(m.map({ type: 'tool_finished', toolUseId: 'r', name: 'Read', content: 'File does not exist', isError: true, durationMs: 1 })).toEqual([
      { sessionUpdate: 'tool_call_update', toolCallId: 'r', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: 'File does not exist' } }], rawOutput: 'File does not exist' },
    ]);
    expect(m.map({ type: 'tool_call_ready', toolUseId: 'b', name: 'Bash', input: { command: 'npm test' } })[0]).toMatchObject({ title: 'npm test', kind: 'execute', locations: [] });
    expect(m.map({ type: 'tool_update', toolUseId: 'b', display: { type: 'command', command: 'npm test', exitCode: null, durationMs: 5, output: 'ok 1' } })).toEqual([
      { sessionUpdate: 'tool_call_update', toolCallId: 'b', content: [{ type: 'content', content: { type: 'text', text: '```\nok 1\n```' } }] },
    ]);
    expect(m.map({ type: 'todos', items: [{ content: 'a', status: 'completed' }, { content: 'b', status: 'in_progress' }] })).toEqual([
      { sessionUpdate: 'plan', entries: [{ content: 'a', priority: 'medium', status: 'completed' }, { content: 'b', priority: 'medium', status: 'in_progress' }] },
    ]);
    expect(m.map({ type: 'turn_started', turn: 2 })).toEqual([]);
  });

  test('input the model sent in the wrong shape gives a plain title and no diff, not a crash', () => {
    const m = new UpdateMapper('/work');
    expect(m.map({ type: 'tool_call_ready', toolUseId: 'e', name: 'Edit', input: { file_path: 3, old_string: null } })[0]).toMatchObject({ title: 'Edit', locations: [], content: [] });
    expect(m.map({ type: 'tool_call_ready', toolUseId: 'n', name: 'mcp__x__y', input: 'text' })[0]).toMatchObject({ title: 'mcp__x__y', kind: 'other' });
  });
});

describe('replayUpdates', () => {
  test('a saved conversation comes back as user and agent chunks, thinking, and each tool call with its result', () => {
    expect(
      replayUpdates(
        [
          { role: 'user', content: [{ type: 'text', text: 'read a' }] },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'ok', signature: 's' },
              { type: 'text', text: 'Reading.' },
              { type: 'tool_use', id: 't', name: 'Read', input: { file_path: 'a' } },
            ],
          },
          { role: 'user', content: [{ type: 'tool_result', toolUseId: 't', content: [{ type: 'text', text: '1\thello' }], isError: false }] },
          { role: 'assistant', content: [{ type: 'text', text: 'It says hello.' }] },
        ],
        '/w',
      ),
    ).toEqual([
      { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'read a' } },
      { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'ok' } },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Reading.' } },
      { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read a', kind: 'read', status: 'pending', locations: [{ path: '/w/a' }], content: [], rawInput: { file_path: 'a' } },
      { sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: '1\thello' } }] },
      { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'It says hello.' } },
    ]);
  });
});
