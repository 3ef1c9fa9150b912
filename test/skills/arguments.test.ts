import { describe, expect, test } from 'bun:test';
import { splitArguments } from '../../src/skills/index.ts';

describe('splitArguments', () => {
  test.each([
    ['', []],
    ['   ', []],
    ['a b  c', ['a', 'b', 'c']],
    ['"a b" c', ['a b', 'c']],
    ["'a \"b\"' c", ['a "b"', 'c']],
    ['"say \\"hi\\"" x', ['say "hi"', 'x']],
    ['a\\ b c', ['a b', 'c']],
    ['src\\x.ts', ['src\\x.ts']],
    ['""', ['']],
    ['pre"mid dle"post', ['premid dlepost']],
    ['"unclosed rest', ['unclosed rest']],
    ['line1\nline2', ['line1', 'line2']],
  ] as const)('%p', (input, expected) => {
    expect(splitArguments(input)).toEqual([...expected]);
  });
});
