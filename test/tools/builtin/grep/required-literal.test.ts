import { expect, test } from 'bun:test';
import { requiredLiteral } from '../../../../src/tools/builtin/grep/required-literal.ts';

test('finds the longest literal every match must contain', () => {
  const cases: [string, string | undefined][] = [
    ['function main', 'function main'],
    ['foo.*barbaz', 'barbaz'],
    ['a\\.b', 'a.b'],
    ['foo\\(', 'foo('],
    ['colou?r', 'colo'],
    ['ab+c', 'ab'],
    ['xy{0,2}z', undefined],
    ['x{2}yz', 'yz'],
    ['abc{2}', 'abc'],
    ['\\bimport\\s+React', 'import'],
    ['(optional)?required', 'required'],
    ['[abc]def', 'def'],
    ['foo|bar', undefined],
    ['\\d+', undefined],
    ['\\cJabc', 'abc'],
    ['\\k<name>xyz', 'xyz'],
    ['\\x41bc', 'bc'],
    ['\\u0041bc', 'bc'],
    ['\\p{L}+word', 'word'],
    ['a{', 'a{'],
  ];
  expect(cases.map(([source]) => requiredLiteral(source))).toEqual(cases.map(([, want]) => want));
});
