import { describe, expect, test } from 'bun:test';
import { parse } from 'smol-toml';
import { lineOfPath, outlineToml } from '../../src/util/toml-outline.ts';

const SOURCE = [
  '# model = "in a comment"', // 1
  'model = "a" # [not a header]', // 2
  'notes = """', // 3
  'fake = 1', // 4
  '[not_a_header]', // 5
  '"""', // 6
  '[permissions]', // 7
  'allow = [', // 8
  '  "Bash(npm test:*)", # c', // 9
  "  'Read(x)',", // 10
  '  "]",', // 11
  ']', // 12
  'deny = []', // 13
  '"quoted.key".sub = 1', // 14
  '[a.b]', // 15
  'c = { d = [1, { e = 2 }], f = "}" }', // 16
  'when = 1979-05-27 07:32:00', // 17
].join('\n');

describe('toml outline', () => {
  test('the fixture is valid TOML', () => {
    expect(() => parse(SOURCE)).not.toThrow();
  });

  test('finds headers and keys, skipping strings and comments', () => {
    const o = outlineToml(SOURCE);
    expect(o.headers.map((h) => [h.path, o.lineAt(h.start)])).toEqual([
      [['permissions'], 7],
      [['a', 'b'], 15],
    ]);
    expect(o.keys.map((k) => [k.path.join('/'), o.lineAt(k.start), SOURCE.slice(k.value.start, k.value.end).split('\n')[0]])).toEqual([
      ['model', 2, '"a"'],
      ['notes', 3, '"""'],
      ['permissions/allow', 8, '['],
      ['permissions/deny', 13, '[]'],
      ['permissions/quoted.key/sub', 14, '1'],
      ['a/b/c', 16, '{ d = [1, { e = 2 }], f = "}" }'],
      ['a/b/c/d', 16, '[1, { e = 2 }]'],
      ['a/b/c/f', 16, '"}"'],
      ['a/b/when', 17, '1979-05-27 07:32:00'],
    ]);
    const allow = o.keys[2]?.array;
    expect(allow?.elements.map((e) => SOURCE.slice(e.start, e.end))).toEqual(['"Bash(npm test:*)"', "'Read(x)'", '"]"']);
    expect(o.lineAt(allow?.close ?? 0)).toBe(12);
  });

  test('lineOfPath: keys, array elements, tables, and paths only known as a prefix', () => {
    const o = outlineToml(SOURCE);
    const cases: [(string | number)[], number][] = [
      [['model'], 2],
      [['permissions', 'allow'], 8],
      [['permissions', 'allow', 1], 10],
      [['permissions', 'allow', 2], 11],
      [['permissions', 'allow', 9], 8],
      [['permissions', 'bogus'], 7],
      [['a'], 15],
      [['a', 'b', 'c', 'd', 1], 16],
      [['permissions', 'quoted.key', 'sub'], 14],
      [['nowhere'], 1],
    ];
    expect(cases.map(([p]) => [p, lineOfPath(o, p)])).toEqual(cases);
  });
});
