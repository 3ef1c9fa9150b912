import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir } from '../tool-context.ts';
import { buildNative, fails, ok } from './native.ts';

let dir = '';
const BINARY = new Uint8Array([0, 255, 254, 62, 63, 128, 10, 13]);

beforeAll(async () => {
  await buildNative();
  dir = tempDir();
  writeFileSync(join(dir, 'data.bin'), BINARY);
  writeFileSync(join(dir, 'wrapped.txt'), 'aGVs\nbG8g\r\nd29y\nbGQ=\n');
}, 120_000);
afterAll(() => removeDir(dir));

const b64 = async (...args: string[]): Promise<string> => (await ok('base64', args, { cwd: dir })).content;

describe('base64', () => {
  test('RFC 4648 test vectors, padded and unpadded', async () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'Zg=='],
      ['fo', 'Zm8='],
      ['foo', 'Zm9v'],
      ['foob', 'Zm9vYg=='],
      ['fooba', 'Zm9vYmE='],
      ['foobar', 'Zm9vYmFy'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(await b64('encode', '--', plain)).toBe(encoded);
      expect(await b64('encode', '--no-padding', '--', plain)).toBe(encoded.replace(/=/g, ''));
      expect(await b64('decode', '--', encoded)).toBe(plain);
      expect(await b64('decode', '--', encoded.replace(/=/g, ''))).toBe(plain);
    }
  });

  test('URL-safe alphabet', async () => {
    expect(await b64('encode', 'hello?>>')).toBe('aGVsbG8/Pj4=');
    expect(await b64('encode', '--url-safe', 'hello?>>')).toBe('aGVsbG8_Pj4=');
    expect(await b64('encode', '--url-safe', '--no-padding', 'hello?>>')).toBe('aGVsbG8_Pj4');
    expect(await b64('decode', '--url-safe', 'aGVsbG8_Pj4')).toBe('hello?>>');
  });

  test('UTF-8 text round-trips', async () => {
    const text = 'grüße, 世界 🌍';
    const encoded = await b64('encode', text);
    expect(encoded).toBe(Buffer.from(text).toString('base64'));
    expect(await b64('decode', encoded)).toBe(text);
  });

  test('files in the working folder', async () => {
    const r = await ok('base64', ['encode', '--file', 'data.bin'], { cwd: dir });
    expect(r).toEqual({ error: false, content: Buffer.from(BINARY).toString('base64'), metadata: { bytes: 8 } });
    expect(await b64('decode', '-f', 'wrapped.txt')).toBe('hello world'); // line breaks are skipped
    const out = await ok('base64', ['decode', '--output', 'out.bin', Buffer.from(BINARY).toString('base64')], { cwd: dir });
    expect(out).toEqual({ error: false, content: 'wrote 8 bytes to out.bin', metadata: { bytes: 8, output: 'out.bin' } });
    expect(new Uint8Array(readFileSync(join(dir, 'out.bin')))).toEqual(BINARY);
  });

  test.each([
    [['decode', 'aGVsbG8_Pj4='], "error: invalid base64 character '_' at position 8 (this looks like URL-safe base64; use the URL-safe alphabet)"],
    [['decode', '--url-safe', 'aGVsbG8/Pj4='], "error: invalid base64 character '/' at position 8 (this looks like standard base64; do not use the URL-safe alphabet)"],
    [['decode', 'Zm9v!'], "error: invalid base64 character '!' at position 5"],
    [['decode', 'Zg=x'], "error: invalid character 'x' at position 4: nothing may follow the '=' padding"],
    [['decode', 'Z'], 'error: invalid base64 length: 1 base64 characters cannot encode whole bytes (one is missing or extra)'],
    [['decode', 'Zg='], "error: invalid padding: the '=' count does not match the length"],
    [['decode', 'Zg==='], "error: invalid padding at position 5: more than two '='"],
    [['decode', '/w=='], 'error: the decoded data is binary (1 bytes), not UTF-8 text; pass --output <path> to write it to a file'],
    [['encode'], 'error: no input: give TEXT or --file <path>'],
    [['encode', '--file', 'data.bin', 'x'], 'error: give either TEXT or --file, not both'],
    [['encode', '--file', 'nope.bin'], 'error: file not found: nope.bin'],
  ])('%p is a clear error', async (args, message) => {
    expect(await fails('base64', args, { cwd: dir })).toBe(message);
  });

  test('a subcommand is required', async () => {
    expect(await fails('base64', [], { cwd: dir, code: 2 })).toStartWith('error: a subcommand is required');
    expect(await fails('base64', ['rot13', 'x'], { cwd: dir, code: 2 })).toStartWith("error: unrecognized subcommand 'rot13'");
  });
});
