/** Which command lines start with the longer start-up JIT policy (src/util/jit-policy.ts). */
import { expect, test } from 'bun:test';
import { answersAndExits } from '../../src/util/jit-policy.ts';

test('answersAndExits: -p and stream-json input, written either way; not the TUI or other commands', () => {
  const lines = [
    ['-p', 'hi'],
    ['--model', 'opus', '--print', 'hi'],
    ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'],
    ['--input-format=stream-json'],
    [],
    ['fix the tests'],
    ['--input-format', 'text', 'hi'],
    ['--output-format', 'stream-json', 'hi'],
    ['sessions', 'list'],
    ['explain -p'],
    ['-cp', 'go on'],
    ['--', '-p'],
    ['-r', 'abc', '-p'],
  ];
  expect(lines.map((argv) => answersAndExits(argv))).toEqual([true, true, true, true, false, false, false, false, false, false, true, false, true]);
});
