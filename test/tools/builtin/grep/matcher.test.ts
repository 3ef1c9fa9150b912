import { expect, test } from 'bun:test';
import { compileMatcher, scanMatches } from '../../../../src/tools/builtin/grep/matcher.ts';

const TEXT = [
  'import { a } from "b";',
  '',
  'export function main(argv) {',
  '  const x = argv[0] ?? "default";',
  '  return x.trim();',
  '}',
  'ab',
  'cd ab',
  '\tindented TODO: fix',
  'trailing space ',
  'Main',
  '',
].join('\n');

/** The reference: test each line on its own, as grep defines a match. */
function naive(pattern: string, ignoreCase: boolean): number[] {
  const re = new RegExp(pattern, ignoreCase ? 'i' : '');
  return TEXT.split('\n')
    .slice(0, -1)
    .flatMap((line, i) => (re.test(line) ? [i + 1] : []));
}

function ours(pattern: string, ignoreCase: boolean): number[] {
  const found: number[] = [];
  scanMatches(TEXT, compileMatcher(pattern, ignoreCase, false), (r) => (found.push(r.start), true));
  return found;
}

test('whole-file scanning gives the same lines as line-by-line matching', () => {
  const patterns = ['main', '^$', '^\\s', 'ab[^x]*$', '\\s+$', 'x\\W+\\w', '[^a]*', 'a|TODO', '"\\w+"', '\\s\\s', '^', '$', '\\)\\s*\\{\\s*const', 'b";\\s'];
  for (const ignoreCase of [false, true]) {
    expect(patterns.map((p) => ours(p, ignoreCase))).toEqual(patterns.map((p) => naive(p, ignoreCase)));
  }
});

test('multiline matches report the span of lines', () => {
  const spans: string[] = [];
  scanMatches(TEXT, compileMatcher('function.*?\\{.*?const', false, true), (r) => (spans.push(`${r.start}-${r.end}`), true));
  expect(spans).toEqual(['3-4']);
});
