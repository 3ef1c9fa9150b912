import { describe, expect, test } from 'bun:test';
import { mapOutput } from '../../../src/tools/wasm/index.ts';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('mapOutput', () => {
  test('the JSON envelope: content for the model, metadata for the UI', () => {
    const out = enc('{"error":false,"content":"14","metadata":{"expression":"2*7","value":14,"paths":["a","b"]}}\n');
    expect(mapOutput(0, out, new Uint8Array())).toEqual({
      content: '14',
      display: { type: 'text', text: 'expression: 2*7 · value: 14 · paths: 2 items' },
    });
  });

  test('an envelope with error: true is an error result', () => {
    expect(mapOutput(0, '{"error":true,"content":"no such key"}', '')).toEqual({ content: 'no such key', isError: true });
    expect(mapOutput(0, '{"error":true,"content":""}', 'details on stderr\n')).toEqual({ content: 'details on stderr', isError: true });
  });

  test('non-string content is shown as JSON', () => {
    expect(mapOutput(0, '{"content":{"a":[1,2]}}', '')).toEqual({ content: '{\n  "a": [\n    1,\n    2\n  ]\n}' });
  });

  test('plain text stdout is a successful text result', () => {
    expect(mapOutput(0, enc('hello\nworld\n'), enc(''))).toEqual({ content: 'hello\nworld' });
    expect(mapOutput(0, '{not json', '')).toEqual({ content: '{not json' });
    expect(mapOutput(0, '{"a": 1}', '')).toEqual({ content: '{"a": 1}' }); // JSON, but not an envelope
    expect(mapOutput(0, '', '')).toEqual({ content: '(no output)' });
  });

  test('a non-zero exit is an error carrying stderr, trimmed and capped', () => {
    expect(mapOutput(1, '', '  error: division by zero\n')).toEqual({ content: 'error: division by zero', isError: true });
    expect(mapOutput(3, 'partial', '')).toEqual({ content: 'partial', isError: true });
    expect(mapOutput(137, '', '')).toEqual({ content: 'the tool exited with code 137 and printed nothing', isError: true });
    const long = mapOutput(1, '', 'x'.repeat(10_000), { maxContentChars: 100, maxErrorChars: 50 });
    expect(long).toEqual({ content: `${'x'.repeat(50)}\n[… 9950 more characters truncated]`, isError: true });
  });

  test('content is capped', () => {
    const r = mapOutput(0, JSON.stringify({ error: false, content: 'y'.repeat(300), metadata: {} }), '', { maxContentChars: 100, maxErrorChars: 10 });
    expect(r).toEqual({ content: `${'y'.repeat(100)}\n[… 200 more characters truncated]` });
  });

  test('legacy-encoded stderr is decoded', () => {
    const gbk = new Uint8Array([0xb4, 0xed, 0xce, 0xf3, 0xa3, 0xba, 0xce, 0xc4, 0xbc, 0xfe, 0xb2, 0xbb, 0xb4, 0xe6, 0xd4, 0xda]);
    expect(mapOutput(2, new Uint8Array(), gbk)).toEqual({ content: '错误：文件不存在', isError: true });
  });
});
