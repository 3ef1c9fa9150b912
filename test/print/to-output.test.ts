/** The output mapper: `--output-format json` without --verbose builds the result line alone, with the same tallies as the full mapping. */
import { expect, test } from 'bun:test';
import { OutputMapper } from '../../src/print/to-output.ts';
import type { SessionEvent } from '../../src/protocol/index.ts';

const usage = { inputTokens: 10, outputTokens: 5, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 };

/** A run with a refused call, a call the read-only sandbox stopped from writing, and one that read a file. */
const events: SessionEvent[] = [
  { type: 'session_started', sessionId: 's-1', cwd: '/w', model: 'claude-sonnet-4-5', tools: ['Bash', 'Read'], permissionMode: 'default', resumed: false },
  {
    type: 'assistant_message',
    turn: 1,
    usage,
    message: {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Working.' },
        { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'rm -rf x' } },
        { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'touch y' } },
        { type: 'tool_use', id: 'toolu_3', name: 'Read', input: { file_path: 'a.txt' } },
      ],
    },
  },
  { type: 'permission_denied', toolUseId: 'toolu_1', toolName: 'Bash', input: { command: 'rm -rf x' }, message: 'denied' },
  {
    type: 'tool_finished',
    toolUseId: 'toolu_2',
    name: 'Bash',
    content: 'touch: cannot touch y',
    isError: true,
    durationMs: 3,
    display: { type: 'command', command: 'touch y', exitCode: 1, durationMs: 3, output: '', sandbox: 'read-only', violations: ['write to /w/y refused'] },
  },
  { type: 'tool_finished', toolUseId: 'toolu_3', name: 'Read', content: 'hello', isError: false, durationMs: 1 },
  {
    type: 'tool_results',
    turn: 1,
    results: [
      { type: 'tool_result', toolUseId: 'toolu_1', content: [{ type: 'text', text: 'denied' }], isError: true },
      { type: 'tool_result', toolUseId: 'toolu_2', content: [{ type: 'text', text: 'touch: cannot touch y' }], isError: true },
      { type: 'tool_result', toolUseId: 'toolu_3', content: [{ type: 'text', text: 'hello' }], isError: false },
    ],
  },
];
const finished: Extract<SessionEvent, { type: 'run_finished' }> = { type: 'run_finished', stopReason: 'end_turn', result: 'done', turns: 2, usage, costUsd: 0.01, durationMs: 50 };

function run(resultOnly: boolean) {
  const mapper = new OutputMapper({ apiKeySource: 'ANTHROPIC_API_KEY', version: '1' }, { includePartialMessages: false, resultOnly });
  const lines = events.flatMap((e) => mapper.map(e));
  const { uuid: _, ...result } = mapper.result(finished);
  return { lines, result };
}

test('the result line alone is the same result, denials included, with no message lines built', () => {
  const full = run(false);
  const only = run(true);
  expect(full.lines.map((l) => l.type)).toEqual(['system', 'assistant', 'assistant', 'assistant', 'assistant', 'user', 'user', 'user']);
  expect(only.lines.map((l) => l.type)).toEqual(['system']);
  expect(only.result).toEqual(full.result);
  expect(only.result.permission_denials.map((d) => [d.tool_use_id, d.tool_input])).toEqual([
    ['toolu_1', { command: 'rm -rf x' }],
    ['toolu_2', { command: 'touch y' }],
  ]);
  expect(only.result.session_id).toBe('s-1');
});
