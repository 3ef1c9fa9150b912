import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir } from '../tool-context.ts';
import { buildNative, fails, ok } from './native.ts';

const STORE = {
  store: {
    book: [
      { category: 'reference', author: 'Nigel Rees', title: 'Sayings of the Century', price: 8.95 },
      { category: 'fiction', author: 'Evelyn Waugh', title: 'Sword of Honour', price: 12.99 },
      { category: 'fiction', author: 'Herman Melville', title: 'Moby Dick', isbn: '0-553-21311-3', price: 8.99 },
      { category: 'fiction', author: 'J. R. R. Tolkien', title: 'The Lord of the Rings', isbn: '0-395-19395-8', price: 22.99 },
    ],
    bicycle: { color: 'red', price: 399 },
  },
  expensive: 10,
};

let dir = '';
beforeAll(async () => {
  await buildNative();
  dir = tempDir();
  writeFileSync(join(dir, 'store.json'), JSON.stringify(STORE, null, 2));
  writeFileSync(join(dir, 'big.json'), '{"id": 12345678901234567890, "x": 1.50, "it\'s": [10, 20, 30, 40, 50]}');
  writeFileSync(join(dir, 'bad.json'), '{"a": [1, 2,, 3]}');
}, 120_000);
afterAll(() => removeDir(dir));

async function query(q: string, ...flags: string[]): Promise<unknown> {
  const r = await ok('json_query', ['--file', 'store.json', ...flags, q], { cwd: dir });
  return JSON.parse(r.content);
}

describe('json_query', () => {
  test('member access, dot and bracket', async () => {
    expect(await query('$.store.bicycle.color')).toEqual(['red']);
    expect(await query("$['store']['bicycle']['color']")).toEqual(['red']);
    expect(await query('$["store"].bicycle["price"]')).toEqual([399]);
    expect(await query('store.bicycle.color')).toEqual(['red']); // a missing $ is forgiven
    expect(await query('$')).toEqual([STORE]);
    expect(await query('$.nope')).toEqual([]);
    expect(await query('$.store.book.title')).toEqual([]); // names do not apply to arrays
  });

  test('indexes, negative indexes, unions and wildcards', async () => {
    expect(await query('$.store.book[0].title')).toEqual(['Sayings of the Century']);
    expect(await query('$.store.book[-1].title')).toEqual(['The Lord of the Rings']);
    expect(await query('$.store.book[-5]')).toEqual([]);
    expect(await query('$.store.book[9]')).toEqual([]);
    expect(await query('$.store.book[0,2].author')).toEqual(['Nigel Rees', 'Herman Melville']);
    expect(await query("$.store.bicycle['color','price']")).toEqual(['red', 399]);
    expect(await query('$.store.book[*].price')).toEqual([8.95, 12.99, 8.99, 22.99]);
    expect(await query('$.store.bicycle.*')).toEqual(['red', 399]);
  });

  test('slices with Python semantics', async () => {
    const titles = async (s: string): Promise<unknown> => query(`$.store.book[${s}].price`);
    expect(await titles(':2')).toEqual([8.95, 12.99]);
    expect(await titles('1:3')).toEqual([12.99, 8.99]);
    expect(await titles('-2:')).toEqual([8.99, 22.99]);
    expect(await titles('::2')).toEqual([8.95, 8.99]);
    expect(await titles('::-1')).toEqual([22.99, 8.99, 12.99, 8.95]);
    expect(await titles('3:0:-2')).toEqual([22.99, 12.99]);
    expect(await titles('10:20')).toEqual([]);
    expect(await titles('::0')).toEqual([]); // a zero step is valid and selects nothing (RFC 9535)
  });

  test('recursive descent', async () => {
    expect(await query('$..author')).toEqual(['Nigel Rees', 'Evelyn Waugh', 'Herman Melville', 'J. R. R. Tolkien']);
    expect(await query('$.store..price')).toEqual([8.95, 12.99, 8.99, 22.99, 399]);
    expect(await query('$..book[2].title')).toEqual(['Moby Dick']);
    expect(((await query('$..*')) as unknown[]).length).toBe(28); // 1 store + 1 book array + 4 books + 18 fields + bicycle + 2 + expensive
  });

  test('filters', async () => {
    expect(await query('$..book[?(@.price < 10)].title')).toEqual(['Sayings of the Century', 'Moby Dick']);
    expect(await query('$..book[?@.price >= 12.99].title')).toEqual(['Sword of Honour', 'The Lord of the Rings']);
    expect(await query('$..book[?(@.isbn)].title')).toEqual(['Moby Dick', 'The Lord of the Rings']);
    expect(await query('$..book[?(!@.isbn)].title')).toEqual(['Sayings of the Century', 'Sword of Honour']);
    expect(await query('$..book[?(@.price > $.expensive)].author')).toEqual(['Evelyn Waugh', 'J. R. R. Tolkien']);
    expect(await query(`$..book[?(@.category == 'fiction' && !(@.price > 20))].title`)).toEqual(['Sword of Honour', 'Moby Dick']);
    expect(await query(`$..book[?(@.author == "Nigel Rees" || @.price == 22.99)].price`)).toEqual([8.95, 22.99]);
    expect(await query('$..book[?(@.price != 8.95)].price')).toEqual([12.99, 8.99, 22.99]);
    expect(await query('$..book[?(@.nope == null)]')).toEqual([]); // missing is not null
    expect(await query(`$.store[?(@.color == 'red')].price`)).toEqual([399]); // filters apply to object members too
  });

  test('numbers keep their text, keys with quotes work, --first and --pretty', async () => {
    const r = await ok('json_query', ['--file', 'big.json', '$.id'], { cwd: dir });
    expect(r.content).toBe('[12345678901234567890]');
    expect((await ok('json_query', ['-f', 'big.json', '$.x'], { cwd: dir })).content).toBe('[1.50]');
    expect((await ok('json_query', ['-f', 'big.json', "$['it\\'s'][-2:]"], { cwd: dir })).content).toBe('[40,50]');
    expect((await ok('json_query', ['-f', 'big.json', '--first', "$['it\\'s'][?(@ > 25)]"], { cwd: dir })).content).toBe('30');
    expect((await ok('json_query', ['--json', '{}', '--first', '$.a'])).content).toBe('null');
    expect((await ok('json_query', ['--json', '{"a":{"b":1}}', '--pretty', '$.a'])).content).toBe('[\n  {\n    "b": 1\n  }\n]');
  });

  test('metadata lists the count and normalized paths', async () => {
    const r = await ok('json_query', ['--file', 'store.json', '$..book[?(@.isbn)].isbn'], { cwd: dir });
    expect(r.metadata).toEqual({
      count: 2,
      paths: ["$['store']['book'][2]['isbn']", "$['store']['book'][3]['isbn']"],
    });
  });

  test('inline JSON with unicode and escapes', async () => {
    const r = await ok('json_query', ['--json', '{"名前": "\\u00e9t\\u00e9 😀", "a\\"b": [true, null]}', '$.*']);
    expect(JSON.parse(r.content)).toEqual(['été 😀', [true, null]]);
  });

  test.each([
    [['--json', '{"a": 1,}', '$'], 'error: invalid JSON at line 1, column 9: expected a string key'],
    [['--json', '[1, 2', '$'], "error: invalid JSON at line 1, column 6: expected ',' or ']'"],
    [['--json', '{"a": 1} x', '$'], 'error: invalid JSON at line 1, column 10: unexpected text after the JSON value'],
    [['--json', '"\\ud800"', '$'], 'error: invalid JSON at line 1, column 8: unpaired surrogate in \\u escape'],
    [['--json', '01', '$'], 'error: invalid JSON at line 1, column 2: unexpected text after the JSON value'],
    [['--json', '[1]', '$['], "error: invalid JSONPath at position 3: unterminated '['"],
    [['--json', '[1]', '$.a b'], "error: invalid JSONPath at position 5: unexpected 'b' (a segment starts with '.', '..' or '[')"],
    [['--json', '[1]', '$[?(@.a <)]'], "error: invalid JSONPath at position 10: expected @, $, a function, a number, a string, true, false or null, found ')'"],
    [['--json', '[1]', '$[?(1)]'], 'error: invalid JSONPath at position 5: a literal is not a test by itself: compare it with == != < <= > or >='],
    [['$'], "error: no JSON given: pass --json '<document>' or --file <path>"],
    [['--json', '1', '--file', 'x.json', '$'], 'error: give the JSON either inline with --json or as --file, not both'],
  ])('%p is a clear error', async (args, message) => {
    expect(await fails('json_query', args, { cwd: dir })).toBe(message);
  });

  test('file errors name the file and line', async () => {
    expect(await fails('json_query', ['--file', 'missing.json', '$'], { cwd: dir })).toBe('error: file not found: missing.json');
    expect(await fails('json_query', ['--file', 'bad.json', '$'], { cwd: dir })).toBe(
      'error: invalid JSON at line 1, column 13: expected a value',
    );
    expect(await fails('json_query', ['--file', '.', '$'], { cwd: dir })).toBe('error: . is a folder, not a file');
  });

  test('deeply nested documents are refused, not a stack overflow', async () => {
    expect(await fails('json_query', ['--json', `${'['.repeat(300)}${']'.repeat(300)}`, '$'])).toBe(
      'error: invalid JSON at line 1, column 258: nested too deeply',
    );
  });
});
