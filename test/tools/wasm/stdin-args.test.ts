/** moveArgsToStdin: which arguments leave argv and how their frames are laid out. */
import { describe, expect, test } from 'bun:test';
import { moveArgsToStdin } from '../../../src/tools/wasm/stdin-args.ts';

const decode = (b: Uint8Array | undefined) => (b === undefined ? undefined : new TextDecoder().decode(b));

describe('moveArgsToStdin', () => {
  test('ordinary arguments stay in argv and stdin is untouched', () => {
    expect(moveArgsToStdin(['--text', 'héllo', ''])).toEqual({ argv: ['--text', 'héllo', ''] });
  });

  test('NUL, a leading U+0001 and long text become numbered markers with byte-length frames', () => {
    const long = 'é'.repeat(3000); // 3000 UTF-16 units, 6000 bytes
    const r = moveArgsToStdin(['--a', 'x\0y', '--b', '\u0001moat-stdin:0', '--c', long], 2999);
    expect(r.argv).toEqual(['--a', '\u0001moat-stdin:0', '--b', '\u0001moat-stdin:1', '--c', '\u0001moat-stdin:2']);
    expect(decode(r.stdin)).toBe(`3\nx\0y13\n\u0001moat-stdin:06000\n${long}`);
  });

  test('a lone surrogate is sent as U+FFFD', () => {
    const r = moveArgsToStdin(['\ud800\0']);
    expect(decode(r.stdin)).toBe('4\n\ufffd\0');
  });
});
