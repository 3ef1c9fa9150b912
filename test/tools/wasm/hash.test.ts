import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, tempDir } from '../tool-context.ts';
import { buildNative, fails, ok } from './native.ts';

let dir = '';
let big = new Uint8Array();

beforeAll(async () => {
  await buildNative();
  dir = tempDir();
  // Deterministic bytes of every value, longer than one read buffer (64 KiB) and not block-aligned.
  big = new Uint8Array(200_003).map((_, i) => (i * 31 + (i >> 8)) & 0xff);
  writeFileSync(join(dir, 'big.bin'), big);
  writeFileSync(join(dir, 'empty.bin'), '');
}, 120_000);
afterAll(() => removeDir(dir));

const digest = async (...args: string[]): Promise<string> => (await ok('hash', args, { cwd: dir })).content;

// FIPS 180 / RFC 1321 / RFC 3174 known answers.
const VECTORS: Record<string, [string, string][]> = {
  sha256: [
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
  ],
  sha1: [
    ['', 'da39a3ee5e6b4b0d3255bfef95601890afd80709'],
    ['abc', 'a9993e364706816aba3e25717850c26c9cd0d89d'],
    ['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '84983e441c3bd26ebaae4aa1f95129e5e54670f1'],
  ],
  md5: [
    ['', 'd41d8cd98f00b204e9800998ecf8427e'],
    ['a', '0cc175b9c0f1b6a831c399e269772661'],
    ['abc', '900150983cd24fb0d6963f7d28e17f72'],
    ['message digest', 'f96b697d7cb7938d525a2f31aaf161d0'],
    ['12345678901234567890123456789012345678901234567890123456789012345678901234567890', '57edf4a22be3c955ac49da2e2107b67a'],
  ],
};

describe('hash', () => {
  for (const [algo, vectors] of Object.entries(VECTORS)) {
    test(`${algo} known vectors`, async () => {
      for (const [input, expected] of vectors) expect(await digest(algo, '--', input)).toBe(expected);
    });
  }

  test('every length around the 64-byte block boundary matches node:crypto', async () => {
    for (const n of [55, 56, 57, 63, 64, 65, 119, 120, 128]) {
      const input = 'x'.repeat(n);
      for (const algo of ['sha256', 'sha1', 'md5']) {
        expect(`${algo}/${n}: ${await digest(algo, input)}`).toBe(`${algo}/${n}: ${createHash(algo).update(input).digest('hex')}`);
      }
    }
  });

  test('files are streamed and hashed exactly', async () => {
    for (const algo of ['sha256', 'sha1', 'md5']) {
      const r = await ok('hash', [algo, '--file', 'big.bin'], { cwd: dir });
      expect(r).toEqual({
        error: false,
        content: createHash(algo).update(big).digest('hex'),
        metadata: { algorithm: algo, bytes: 200_003, source: 'file' },
      });
    }
    expect(await digest('sha256', '-f', 'empty.bin')).toBe(VECTORS.sha256?.[0]?.[1] ?? '');
  });

  test('UTF-8 text and base64 output', async () => {
    expect(await digest('sha256', 'grüße 🌍')).toBe(createHash('sha256').update('grüße 🌍').digest('hex'));
    expect(await digest('sha256', '--encoding', 'base64', 'abc')).toBe('ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=');
  });

  test.each([
    [['sha256'], 'error: nothing to hash: give TEXT or --file <path>'],
    [['sha256', '--file', 'big.bin', 'abc'], 'error: give either TEXT or --file, not both'],
    [['md5', '--file', 'missing.bin'], 'error: file not found: missing.bin'],
    [['sha1', '--file', '.'], 'error: . is a folder, not a file'],
  ])('%p is a clear error', async (args, message) => {
    expect(await fails('hash', args, { cwd: dir })).toBe(message);
  });

  test('unknown algorithms and encodings are usage errors', async () => {
    expect(await fails('hash', ['sha512', 'x'], { cwd: dir, code: 2 })).toStartWith("error: unrecognized subcommand 'sha512'");
    expect(await fails('hash', ['md5', '--encoding', 'hex2', 'x'], { cwd: dir, code: 2 })).toStartWith(
      "error: invalid value 'hex2' for '--encoding': possible values are hex, base64",
    );
  });
});
