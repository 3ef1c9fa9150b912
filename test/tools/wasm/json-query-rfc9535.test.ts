/**
 * json_query beyond what the compliance suite (json-query-cts.test.ts) pins
 * down: the function extensions on a realistic document, I-Regexp details
 * (RFC 9485: classes, categories, anchors, invalid patterns are false, and
 * matching stays linear on patterns that make backtracking engines explode),
 * exact comparison of big numbers, normalized-path escaping (RFC 9535 §2.7),
 * and the wording of syntax errors: one line, where and why.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { buildNative, fails, ok, runNative } from './native.ts';

beforeAll(buildNative, 120_000);

const BOOKS = {
  books: [
    { title: 'Sayings of the Century', author: 'Nigel Rees', price: 8.95, tags: ['quotes'] },
    { title: 'Moby Dick', author: 'Herman Melville', price: 8.99, isbn: '0-553-21311-3', tags: [] },
    { title: 'The Lord of the Rings', author: 'J. R. R. Tolkien', price: 22.99, isbn: '0-395-19395-8', tags: ['fantasy', 'epic'] },
  ],
  pattern: '.*Rings',
};

async function query(doc: unknown, q: string): Promise<unknown> {
  return JSON.parse((await ok('json_query', ['--json', JSON.stringify(doc), '--', q])).content);
}

const titles = (q: string) => query(BOOKS, `$.books[?${q}].title`);

describe('json_query functions (RFC 9535 §2.4)', () => {
  test('length counts characters, items or members; nothing for other values', async () => {
    expect(await titles('length(@.title) > 20')).toEqual(['Sayings of the Century', 'The Lord of the Rings']);
    expect(await titles('length(@.tags) == 0')).toEqual(['Moby Dick']);
    expect(await titles('length(@) == 5')).toEqual(['Moby Dick', 'The Lord of the Rings']); // members
    expect(await query(['😀é', 'abc', 5, null], '$[?length(@) == 2]')).toEqual(['😀é']); // code points, not UTF-16 units
    expect(await query([5, true, null], '$[?length(@) >= 0]')).toEqual([]);
  });

  test('count and value take queries', async () => {
    expect(await titles('count(@.tags[*]) == 2')).toEqual(['The Lord of the Rings']);
    expect(await titles('count(@..*) == 5')).toEqual(['Sayings of the Century', 'Moby Dick']); // descendants, not just children
    expect(await titles("value(@.tags[0]) == 'quotes'")).toEqual(['Sayings of the Century']);
    expect(await titles('value(@.tags[*]) == null')).toEqual([]); // several nodes: nothing, which is not null
  });

  test('match is the whole string, search any part; the pattern may come from the document', async () => {
    expect(await titles("match(@.author, 'J.*')")).toEqual(['The Lord of the Rings']);
    expect(await titles("match(@.author, 'Rees')")).toEqual([]);
    expect(await titles("search(@.author, 'Rees')")).toEqual(['Sayings of the Century']);
    expect(await titles('match(@.title, $.pattern)')).toEqual(['The Lord of the Rings']);
    expect(await titles("!search(@.title, '[Tt]he')")).toEqual(['Moby Dick']);
    expect(await titles("match(@.isbn, '[0-9]-[0-9]{3}-[0-9]{5}-[0-9]')")).toEqual(['Moby Dick', 'The Lord of the Rings']);
  });
});

describe('I-Regexp (RFC 9485)', () => {
  const matching = (items: string[], pattern: string) => query(items, `$[?match(@, ${JSON.stringify(pattern)})]`);

  test('classes, ranges, escapes, categories and repetition', async () => {
    expect(await matching(['a', 'b', '-', 'c'], '[a-b-]')).toEqual(['a', 'b', '-']); // '-' last is literal
    expect(await matching(['a', 'b', '-', 'c'], '[^a-b]')).toEqual(['-', 'c']);
    expect(await matching(['a]', 'a\\', 'a.'], 'a[\\]\\\\]')).toEqual(['a]', 'a\\']);
    expect(await matching(['Ж', 'ж', '1', '١'], '\\p{Nd}')).toEqual(['1', '١']); // any script's digits
    expect(await matching(['Ж', 'ж', '1'], '[\\p{Lu}\\p{N}]')).toEqual(['Ж', '1']);
    expect(await matching(['Ж', 'ж', '1'], '\\P{L}')).toEqual(['1']);
    expect(await matching(['', 'x', 'xx', 'xxx', 'xxxx'], 'x{1,3}')).toEqual(['x', 'xx', 'xxx']);
    expect(await matching(['', 'ab', 'abab', 'aba'], '(ab)*')).toEqual(['', 'ab', 'abab']);
    expect(await matching(['cat', 'dog', 'cow'], 'cat|do(g|t)')).toEqual(['cat', 'dog']);
    expect(await matching(['a\nb', 'a\rb', 'a b'], 'a.b')).toEqual(['a b']); // '.' is anything but CR and LF
  });

  test('^ and $ are anchors, as the compliance suite and RFC 9485 §5 mappings have them', async () => {
    expect(await query(['abc', 'xabc'], "$[?search(@, '^ab')]")).toEqual(['abc']);
    expect(await query(['abc', 'abcx'], "$[?search(@, 'bc$')]")).toEqual(['abc']);
    expect(await matching(['a$', 'a^'], 'a[$^]')).toEqual(['a$', 'a^']); // literal inside a class
  });

  test('a pattern that is not an I-Regexp selects nothing rather than failing', async () => {
    for (const bad of ['\\d', '(?:a)', 'a**', '[]', '[a', 'a{2,1}', '\\p{Greek}', '(a', 'a)', 'a{1001}', '\\$']) {
      expect(await matching(['a', 'd', '1', '$'], bad)).toEqual([]);
    }
  });

  test('matching time is linear: no catastrophic backtracking', async () => {
    const text = 'a'.repeat(20_000);
    const started = performance.now();
    expect(await query([text], "$[?match(@, '(a*)*b')]")).toEqual([]);
    expect(await query([text], "$[?search(@, '(a|aa)*c')]")).toEqual([]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('comparisons', () => {
  test('numbers compare exactly, by value: big integers are not rounded, 1 == 1.0 == 1e0', async () => {
    // Raw text both ways: JSON.parse would round the document before the tool saw it.
    const doc = '[12345678901234567890, 12345678901234567891, 1, 1.0, 1e0, 10e-1, -0, 0, 1e400, -5, -0.5]';
    const raw = async (q: string) => (await ok('json_query', ['--json', doc, q])).content;
    expect(await raw('$[?@ == 12345678901234567891]')).toBe('[12345678901234567891]');
    expect(await raw('$[?@ > 12345678901234567890]')).toBe('[12345678901234567891,1e400]');
    expect(await raw('$[?@ == 1]')).toBe('[1,1.0,1e0,10e-1]');
    expect(await raw('$[?@ == -0.0]')).toBe('[-0,0]');
    expect(await raw('$[?@ < 0]')).toBe('[-5,-0.5]');
  });

  test('missing is nothing: equal only to nothing, never null; arrays and objects compare deeply', async () => {
    const doc = [{ a: null }, {}, { a: [1, { b: 2 }] }];
    expect(await query(doc, '$[?@.a == null]')).toEqual([{ a: null }]);
    expect(await query(doc, '$[?@.a == @.missing]')).toEqual([{}]);
    expect(await query(doc, '$[?@.a == $[2].a]')).toEqual([{ a: [1, { b: 2 }] }]);
    expect(await query(doc, "$[?@.a < 'x' || @.a > 'x']")).toEqual([]); // only numbers and strings order
  });
});

describe('normalized paths (RFC 9535 §2.7)', () => {
  test("names in single quotes, with ' \\ and control characters escaped", async () => {
    const r = await ok('json_query', ['--json', JSON.stringify({ "it's": 1, 'a\\b': 2, 'c\u0001': 3, 'd\u2028': 4, 't\t': 5 }), '$.*']);
    expect(r.metadata.paths).toEqual(["$['it\\'s']", "$['a\\\\b']", "$['c\\u0001']", "$['d\u2028']", "$['t\\t']"]);
  });
});

describe('syntax errors say where and why, on one line', () => {
  test.each([
    [' $', 1, 'blank space before the query'],
    ['$ ', 2, 'blank space after the query'],
    ['', 1, 'the query is empty: it starts with $'],
    ['$[1,]', 5, "expected a selector before ']'"],
    ['$.1', 3, "expected a member name or '*' after '.', found '1' (a name starts with a letter, _ or a non-ASCII character; write others as ['name'])"],
    ['$[01]', 3, "invalid integer '01' (no leading zeros, no -0)"],
    ['$[9007199254740992]', 3, "integer '9007199254740992' is out of range (at most 2^53 - 1 either way)"],
    ['$["\\q"]', 4, "invalid escape: backslash before 'q' (valid: \\b \\f \\n \\r \\t \\/ \\\\ \\uXXXX and the quote)"],
    ["$['\\\"']", 4, "invalid escape: '\"' needs no backslash inside single quotes"],
    ['$["a\nb"]', 5, 'control character U+000A in a string: escape it'],
    ['$["\\ud800"]', 4, '\\uD800 is a high surrogate: a \\u low surrogate (DC00 to DFFF) must follow'],
    ['$["\\udc00"]', 4, '\\uDC00 is a low surrogate without a high one before it'],
    ['$[?@.a = 1]', 8, "'=' is not an operator: use == to compare"],
    ['$[?@.a & @.b]', 8, "'&' is not an operator: use && for and"],
    ['$[?@.a == 1 == 2]', 12, 'comparisons do not chain: join them with && or ||'],
    ['$[?!@.a == 1]', 4, "'!' cannot negate a comparison directly: write !(… == …)"],
    ['$[?!!@.a]', 5, "a second '!' needs parentheses: !(!…)"],
    ['$[?length(@.a)]', 4, 'length() gives a value, not true or false: compare it, e.g. length(…) > 0'],
    ['$[?@.* == 1]', 4, "this query can select several nodes and cannot be compared: use only .name, ['name'] and [index] segments, or count() or value()"],
    ['$[?count(1) > 0]', 10, 'count() needs a query, not a literal'],
    ['$[?length(@..a) > 1]', 11, 'length() needs a value, and this query can select several nodes (wrap it in value())'],
    ['$[?match(@, "a") == true]', 4, 'match() and search() give true or false and cannot be compared'],
    ['$[?foo(@)]', 4, "unknown function 'foo' (there are length, count, match, search and value)"],
    ['$[?match(@.a)]', 4, 'match() takes 2 arguments, not 1'],
    ['$[?length (@.a) > 1]', 10, "expected '(' right after length"],
    ['$[?(@.a == 1]', 13, "expected ')', found ']'"],
    ['$[?true]', 4, 'a literal is not a test by itself: compare it with == != < <= > or >='],
    ['$[?@.a == 01]', 11, "invalid number '01'"],
  ])('%p', async (q, position, why) => {
    expect(await fails('json_query', ['--json', '{}', '--', q])).toBe(`error: invalid JSONPath at position ${position}: ${why}`);
  });
});

test('--help names the functions and I-Regexp', async () => {
  const help = (await runNative('json_query', ['--help'])).stdout;
  for (const word of ['RFC 9535', 'length(', 'count(', 'value(', 'match(', 'search(', 'I-Regexp']) expect(help).toContain(word);
});
