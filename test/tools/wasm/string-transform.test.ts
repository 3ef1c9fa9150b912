import { beforeAll, describe, expect, test } from 'bun:test';
import { buildNative, fails, ok } from './native.ts';

beforeAll(buildNative, 120_000);

const st = async (op: string, text: string, ...flags: string[]): Promise<string> =>
  (await ok('string_transform', [...flags, op, '--', text])).content;

describe('string_transform', () => {
  test('case by Unicode rules', async () => {
    expect(await st('upper', 'straße ǆ éa')).toBe('STRASSE Ǆ ÉA');
    expect(await st('lower', 'ÀÉÎ ΣΑΣ')).toBe('àéî σας'); // final sigma
    expect(await st('upper', '')).toBe('');
  });

  test('trimming Unicode whitespace', async () => {
    expect(await st('trim', '\u3000 \t hi there \n\u00a0')).toBe('hi there');
    expect(await st('trim_start', '  hi  ')).toBe('hi  ');
    expect(await st('trim_end', '  hi  ')).toBe('  hi');
    expect(await st('trim', '   ')).toBe('');
  });

  test('reverse keeps accents, emoji sequences and flags whole', async () => {
    expect(await st('reverse', 'hello')).toBe('olleh');
    expect(await st('reverse', 'ae\u0301b')).toBe('be\u0301a'); // e + combining acute stays together
    expect(await st('reverse', 'ab👩‍💻c')).toBe('c👩‍💻ba'); // ZWJ sequence
    expect(await st('reverse', '👍🏽!')).toBe('!👍🏽'); // skin tone modifier
    expect(await st('reverse', '🇩🇪🇫🇷')).toBe('🇫🇷🇩🇪'); // regional-indicator pairs
    expect(await st('reverse', '日本語')).toBe('語本日');
    expect(await st('reverse', 'a\r\nb')).toBe('b\r\na');
  });

  test('length counts characters, not bytes', async () => {
    const r = await ok('string_transform', ['length', 'héllo👍🏽']);
    expect(r).toEqual({
      error: false,
      content: '7',
      metadata: { operation: 'length', chars: 7, bytes: 14, graphemes: 6, unicode: '17.0.0' },
    });
    expect(await st('length', '')).toBe('0');
    expect(await st('length', '日本語')).toBe('3');
  });

  test('slugify folds accents and collapses separators', async () => {
    expect(await st('slugify', 'Hello, World!')).toBe('hello-world');
    expect(await st('slugify', '  Crème Brûlée -- Straße  ')).toBe('creme-brulee-strasse');
    expect(await st('slugify', 'Cafe\u0301 au lait')).toBe('cafe-au-lait'); // decomposed accent
    expect(await st('slugify', 'Ελληνικά και 日本')).toBe('ελληνικα-και-日本'); // marks dropped, Greek letters kept
    expect(await st('slugify', 'snake_case and CamelCase', '--separator', '_')).toBe('snake_case_and_camelcase');
    expect(await st('slugify', '!!!')).toBe('');
  });

  test('word count', async () => {
    const r = await ok('string_transform', ['word_count', 'one two\tthree\nfour  ']);
    expect(r.content).toBe('4');
    expect(r.metadata).toEqual({ operation: 'word_count', words: 4, lines: 2, chars: 20 });
    expect(await st('word_count', '   ')).toBe('0');
  });

  test('text that looks like a flag is still text after --', async () => {
    expect(await st('upper', '--help')).toBe('--HELP');
  });

  test('an unknown operation is a usage error listing the choices', async () => {
    expect(await fails('string_transform', ['capitalize', 'x'], { code: 2 })).toStartWith(
      "error: invalid value 'capitalize' for '<OPERATION>': possible values are upper, lower, trim, trim_start, trim_end, reverse, length, slugify, word_count",
    );
    expect(await fails('string_transform', ['upper'], { code: 2 })).toStartWith(
      'error: the following required arguments were not provided:\n  <TEXT>',
    );
  });
});
