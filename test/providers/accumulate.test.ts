import { describe, expect, test } from 'bun:test';
import {
  AccumulateError,
  accumulate,
  createAccumulator,
  messageOf,
  previewPartialJson,
  type AccumulatorState,
  type ProviderEvent,
  type Usage,
} from '../../src/providers/index.ts';

const USAGE: Usage = { inputTokens: 10, outputTokens: 1, cacheCreationInputTokens: 2, cacheReadInputTokens: 3 };
const START: ProviderEvent = { type: 'message_start', model: 'claude-x', usage: USAGE };

function run(events: ProviderEvent[], state: AccumulatorState = createAccumulator()): AccumulatorState {
  return events.reduce(accumulate, state);
}

function rejection(events: ProviderEvent[]): string {
  try {
    run(events);
  } catch (e) {
    if (e instanceof AccumulateError) return e.message;
    throw e;
  }
  throw new Error('expected an AccumulateError');
}

/** A tool call whose JSON arrives in the given fragments. */
function toolEvents(fragments: string[]): ProviderEvent[] {
  return [
    START,
    { type: 'tool_use_start', index: 0, id: 'toolu_1', name: 'edit' },
    ...fragments.map((partialJson): ProviderEvent => ({ type: 'tool_use_delta', index: 0, partialJson })),
    { type: 'block_end', index: 0 },
  ];
}

describe('accumulate', () => {
  test('builds a full message: thinking, redacted thinking, text, tool use', () => {
    const state = run([
      START,
      { type: 'thinking_start', index: 0 },
      { type: 'thinking_delta', index: 0, thinking: 'Let me ' },
      { type: 'thinking_delta', index: 0, thinking: 'think.' },
      { type: 'thinking_signature', index: 0, signature: 'sig-abc' },
      { type: 'block_end', index: 0 },
      { type: 'thinking_start', index: 1, redactedData: 'opaque==' },
      { type: 'block_end', index: 1 },
      { type: 'text_start', index: 2 },
      { type: 'text_delta', index: 2, text: 'Hello ' },
      { type: 'text_delta', index: 2, text: 'world' },
      { type: 'block_end', index: 2 },
      { type: 'tool_use_start', index: 3, id: 'toolu_1', name: 'read' },
      { type: 'tool_use_delta', index: 3, partialJson: '{"file_path":' },
      { type: 'tool_use_delta', index: 3, partialJson: '"a.txt"}' },
      { type: 'block_end', index: 3 },
      { type: 'usage', usage: { ...USAGE, outputTokens: 42 } },
    ]);
    const message = messageOf(state);
    expect(message).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Let me think.', signature: 'sig-abc' },
        { type: 'redacted_thinking', data: 'opaque==' },
        { type: 'text', text: 'Hello world' },
        { type: 'tool_use', id: 'toolu_1', name: 'read', input: { file_path: 'a.txt' } },
      ],
    });
    const final = accumulate(state, { type: 'stop', reason: 'tool_use', message, usage: { ...USAGE, outputTokens: 42 } });
    expect({ phase: final.phase, model: final.model, usage: final.usage, stopReason: final.stopReason }).toEqual({
      phase: 'stopped',
      model: 'claude-x',
      usage: { ...USAGE, outputTokens: 42 },
      stopReason: 'tool_use',
    });
  });

  test('is pure: the previous state is left untouched', () => {
    const before = run([START, { type: 'text_start', index: 0 }, { type: 'text_delta', index: 0, text: 'a' }]);
    const after = accumulate(before, { type: 'text_delta', index: 0, text: 'b' });
    expect(messageOf(before)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'a' }] });
    expect(messageOf(after)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'ab' }] });
  });

  test('tool input survives being cut at every possible place, including inside escapes', () => {
    const input = { file_path: 'src/é/ä.ts', old_str: 'a "quoted" \\ line\n\tnext', n: -12.5e3, ok: true, emoji: '😀' };
    // \u escapes as well as raw characters, so cuts land inside `\u00e9` and inside a surrogate pair.
    const json = JSON.stringify(input).replace('é', '\\u00e9');
    for (let i = 0; i <= json.length; i++) {
      for (const j of [i, Math.min(json.length, i + 1), Math.min(json.length, i + 7)]) {
        const parts = [json.slice(0, i), json.slice(i, j), json.slice(j)];
        const message = messageOf(run(toolEvents(parts)));
        expect(message.content).toEqual([{ type: 'tool_use', id: 'toolu_1', name: 'edit', input }]);
      }
    }
  });

  test('empty tool input becomes {}', () => {
    expect(messageOf(run(toolEvents([]))).content).toEqual([{ type: 'tool_use', id: 'toolu_1', name: 'edit', input: {} }]);
  });

  test('invalid tool JSON is rejected at block_end', () => {
    expect(rejection(toolEvents(['{"a":', '1']))).toBe('tool call edit has invalid input JSON: {"a":1');
  });

  test('partial message keeps open text but leaves out an unfinished tool call', () => {
    const state = run([
      START,
      { type: 'text_start', index: 0 },
      { type: 'text_delta', index: 0, text: 'Reading' },
      { type: 'block_end', index: 0 },
      { type: 'tool_use_start', index: 1, id: 'toolu_1', name: 'read' },
      { type: 'tool_use_delta', index: 1, partialJson: '{"file_pa' },
    ]);
    expect(messageOf(state)).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Reading' }] });
  });

  test('an error may come first and ends the stream', () => {
    const err: ProviderEvent = {
      type: 'error',
      error: { kind: 'connection', message: 'down' },
      partial: { role: 'assistant', content: [] },
      usage: USAGE,
    };
    const state = run([err]);
    expect(state.phase).toBe('failed');
    expect(() => accumulate(state, START)).toThrow(new AccumulateError('message_start after the stream ended'));
  });

  const text0: ProviderEvent[] = [START, { type: 'text_start', index: 0 }];
  const cases: [string, ProviderEvent[], string][] = [
    ['delta for a block never started', [START, { type: 'text_delta', index: 0, text: 'x' }], 'text_delta for block 0, which was never started'],
    [
      'delta after its block ended',
      [...text0, { type: 'block_end', index: 0 }, { type: 'text_delta', index: 0, text: 'x' }],
      'text_delta for block 0, which already ended',
    ],
    ['block ended twice', [...text0, { type: 'block_end', index: 0 }, { type: 'block_end', index: 0 }], 'block_end for block 0, which already ended'],
    ['thinking delta into a text block', [...text0, { type: 'thinking_delta', index: 0, thinking: 'x' }], 'thinking_delta for block 0, which is a text block'],
    ['json into a text block', [...text0, { type: 'tool_use_delta', index: 0, partialJson: '{' }], 'tool_use_delta for block 0, which is a text block'],
    [
      'signature into redacted thinking',
      [START, { type: 'thinking_start', index: 0, redactedData: 'x' }, { type: 'thinking_signature', index: 0, signature: 's' }],
      'thinking_signature for block 0, which is a redacted_thinking block',
    ],
    ['index that skips', [START, { type: 'text_start', index: 1 }], 'block 1 started but the next index is 0'],
    ['index started twice', [...text0, { type: 'block_end', index: 0 }, { type: 'text_start', index: 0 }], 'block 0 started twice'],
    ['overlapping blocks', [...text0, { type: 'text_start', index: 1 }], 'block 1 started while block 0 is still open'],
    ['second message_start', [START, START], 'second message_start'],
    ['content before message_start', [{ type: 'text_start', index: 0 }], 'text_start before message_start'],
    [
      'stop with a block open',
      [...text0, { type: 'stop', reason: 'end_turn', message: { role: 'assistant', content: [] }, usage: USAGE }],
      'stop while block 0 is still open',
    ],
    [
      'anything after stop',
      [START, { type: 'stop', reason: 'end_turn', message: { role: 'assistant', content: [] }, usage: USAGE }, { type: 'usage', usage: USAGE }],
      'usage after the stream ended',
    ],
  ];
  for (const [name, events, message] of cases) {
    test(`rejects ${name}`, () => {
      expect(rejection(events)).toBe(message);
    });
  }
});

describe('previewPartialJson', () => {
  test('returns the complete top-level fields of a cut object', () => {
    expect(previewPartialJson('{"file_path": "src/a.ts", "old_str')).toEqual({ file_path: 'src/a.ts' });
    expect(previewPartialJson('{"command":"npm test","timeout":120')).toEqual({ command: 'npm test' });
    expect(previewPartialJson('{"command":"npm test","timeout":120,')).toEqual({ command: 'npm test', timeout: 120 });
    expect(previewPartialJson('{"a":true,"b":fals')).toEqual({ a: true });
    expect(previewPartialJson('{"a":null,"b":-1.5e2}')).toEqual({ a: null, b: -150 });
  });

  test('decodes escapes and stops inside one', () => {
    expect(previewPartialJson('{"p":"a\\"b\\u00e9","q":"x\\u00')).toEqual({ p: 'a"bé' });
    expect(previewPartialJson('{"p":"a\\')).toEqual({});
  });

  test('skips over nested values, keeping complete ones', () => {
    expect(previewPartialJson('{"todos":[{"content":"a]}"}],"path":"x","more":{"deep":[1,')).toEqual({
      todos: [{ content: 'a]}' }],
      path: 'x',
    });
  });

  test('gives nothing for what is not an object start', () => {
    expect(previewPartialJson('')).toEqual({});
    expect(previewPartialJson('[1,2]')).toEqual({});
    expect(previewPartialJson('  {')).toEqual({});
    expect(previewPartialJson('{"a" 1}')).toEqual({});
  });

  test('every prefix of a real input yields a subset of the final object', () => {
    const input = { file_path: 'src/x.ts', old_str: 'a\n"b"', replace_all: false, count: 3 };
    const json = JSON.stringify(input);
    for (let i = 0; i <= json.length; i++) {
      const preview = previewPartialJson(json.slice(0, i));
      for (const [k, v] of Object.entries(preview)) expect(v).toEqual(input[k as keyof typeof input]);
    }
    expect(previewPartialJson(json)).toEqual(input);
  });
});
