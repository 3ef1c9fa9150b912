// A sub-agent's activity line: what its card and task_status show of the tool it calls, whatever the arguments' length.
import { expect, test } from 'bun:test';
import { activityOf } from '../../../src/agent/subagents/run-subagent.ts';
import { activityText } from '../../../src/tui/render/agent-card.ts';

const call = (name: string, input: unknown) => activityOf({ type: 'tool_call_ready', toolUseId: 't1', name, input }) ?? '';

test('a long path keeps its argument on the card, relative to the folder', () => {
  const cwd = `/tmp/${'a-long-private-temporary-folder/'.repeat(4)}work`;
  expect(activityText(call('Read', { file_path: `${cwd}/src/notes.txt` }), cwd)).toBe('Read(src/notes.txt)');
  expect(activityText(call('Bash', { command: 'npm test' }), cwd)).toBe('Bash(npm test)');
});

test('long contents are cut, so the line stays short, and it is still JSON', () => {
  const line = call('Write', { file_path: '/w/a.txt', content: 'x'.repeat(10_000), extra: { deep: 'y'.repeat(200) }, n: 3 });
  expect(line.length).toBeLessThan(200);
  const input = JSON.parse(line.slice('Write '.length)) as Record<string, unknown>;
  expect(input).toMatchObject({ file_path: '/w/a.txt', extra: '{…}', n: 3 });
  expect(input.content).toBe(`${'x'.repeat(59)}…`);
});
