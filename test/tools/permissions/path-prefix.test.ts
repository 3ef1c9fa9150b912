/** The literal-folder shortcut in path matching never changes an answer: checked against the `ignore` library itself. */
import { expect, test } from 'bun:test';
import ignore from 'ignore';
import { relativePathMatches } from '../../../src/tools/permissions/path-pattern-match.ts';
import { parsePathPattern } from '../../../src/tools/permissions/path-pattern.ts';

/** gitignore's answer, as the library gives it, with no shortcut. */
function reference(spec: string, rel: string, fold: boolean): boolean {
  const p = parsePathPattern(spec);
  if (rel === '..' || rel.startsWith('../') || rel.startsWith('/')) return false;
  if (p.glob === '') return true;
  if (rel === '') return false;
  const make = (g: string) => ignore({ ignorecase: fold }).add(/^[!#]/.test(g) ? `\\${g}` : g);
  try {
    return make(p.glob).ignores(rel) || (p.folderGlob !== null && make(p.folderGlob).ignores(rel));
  } catch {
    return false;
  }
}

const SPECS = [
  '//tmp/out/**', '//tmp/out', '//tmp/out/', 'src/', 'out/x/', '/src/**', 'src/*.ts', 'src/**/*.ts', 'src', '*.env', '**/secrets/**', 'a/**/b',
  '//tmp/*/x/**', '//Tmp/Out/**', '~/.ssh/**', './docs/*.md', 'lib/a?c/**', 'lib/[ab]/x', 'dir\\ name/x', 'trailing /x', '!bang/x', '#hash/x', 'deep/er/still/**',
];
const PATHS = [
  'tmp/out', 'tmp/out/a', 'tmp/out/a/b.txt', 'tmp/outer/a', 'tmp/Out/a', 'TMP/OUT/a', 'tmp', 'src/a.ts', 'src/deep/a.ts', 'lib/src/a.ts', 'x/src/a.ts', 'prod.env',
  'a/b.env', 'x/secrets/k', 'a/b', 'a/x/y/b', 'ab/b', '.ssh/id', 'docs/r.md', 'lib/abc/x', 'lib/abd/x', 'lib/a/x', 'lib/b/x', 'dir name/x', 'trailing /x', '!bang/x',
  '#hash/x', 'deep/er/still/x', 'deep/er', 'deep/er/still',
];

test('the same answer as gitignore matching alone, for every pattern, path and case rule', () => {
  let compared = 0;
  for (const spec of SPECS) {
    for (const rel of PATHS) {
      for (const fold of [false, true]) {
        expect({ spec, rel, fold, matches: relativePathMatches(parsePathPattern(spec), rel, fold) }).toEqual({ spec, rel, fold, matches: reference(spec, rel, fold) });
        compared++;
      }
    }
  }
  expect(compared).toBe(SPECS.length * PATHS.length * 2);
});
