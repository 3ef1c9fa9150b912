// The build-time change to string-width (scripts/string-width-patch.ts) keeps every width: A (the RGI test) implies P (the cheap one).
import { describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';
import { lazySegmenter, MAY_BE_RGI_EMOJI, oneColumnClass, patchStringWidth, supportsColorWithoutNodeTty } from '../../scripts/string-width-patch.ts';
import { tempDir } from '../support/temp.ts';

const rgi = /^\p{RGI_Emoji}$/v;
const mayBe = new RegExp(MAY_BE_RGI_EMOJI, 'v');

describe('string-width patch', () => {
  test('every code point that is an RGI emoji passes the cheap test', () => {
    const missed: string[] = [];
    let matched = 0;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const s = String.fromCodePoint(cp);
      if (!rgi.test(s)) continue;
      matched++;
      if (!mayBe.test(s)) missed.push(cp.toString(16));
    }
    expect(matched).toBeGreaterThan(1000);
    expect(missed).toEqual([]);
  });

  test("every sequence in Unicode's emoji data that is an RGI emoji passes the cheap test", () => {
    const sequences: string[] = [];
    for (const file of ['emoji-test.txt', 'emoji-sequences.txt', 'emoji-zwj-sequences.txt']) {
      for (const line of readFileSync(`/usr/share/unicode/emoji/${file}`, 'utf8').split('\n')) {
        const field = /^([0-9A-F]+(?: [0-9A-F]+)*)\s*[;#]/.exec(line)?.[1];
        if (field !== undefined) sequences.push(String.fromCodePoint(...field.split(' ').map((h) => Number.parseInt(h, 16))));
      }
    }
    const rgiSequences = sequences.filter((s) => rgi.test(s));
    expect(rgiSequences.length).toBeGreaterThan(3000);
    expect(rgiSequences.filter((s) => !mayBe.test(s))).toEqual([]);
  });

  test('what the first frame shows does not reach the RGI test', () => {
    for (const s of ['·', '⛨', '─', '…', '0', '#']) expect(mayBe.test(s)).toBe(false);
  });

  test('applies to the installed string-width, once', () => {
    const source = readFileSync(Bun.resolveSync('string-width', import.meta.dir), 'utf8');
    const patched = patchStringWidth(source);
    expect(patched.match(/mayBeRgiEmoji\.test\(segment\) && rgiEmojiRegex\.test\(segment\)/g)?.length).toBe(1);
    expect(patched.match(/ambiguousIsNarrow && oneColumnRun\.test\(string\)/g)?.length).toBe(1);
    expect(() => patchStringWidth('export default () => 0;')).toThrow('string-width changed');
    expect(patched.match(/segmenterInstance \?\?= new Intl\.Segmenter\(\)/g)?.length).toBe(1);
    expect(patched).not.toContain('const segmenter = new Intl.Segmenter();');
    const wrap = lazySegmenter(readFileSync(Bun.resolveSync('wrap-ansi', import.meta.dir), 'utf8'));
    expect(wrap.match(/segmenterInstance \?\?= new Intl\.Segmenter\(\)/g)?.length).toBe(1);
    expect(() => lazySegmenter('export default () => 0;')).toThrow('no longer finds its Intl.Segmenter');
  });

  test('patched, string-width and wrap-ansi build no Intl.Segmenter when they load, one when they first segment, and wrap as before', async () => {
    const dir = tempDir('wrap-ansi-');
    const widthPath = Bun.resolveSync('string-width', import.meta.dir);
    const wrapPath = Bun.resolveSync('wrap-ansi', import.meta.dir);
    const resolved = (from: string) => (_m: string, name: string) => `from '${Bun.resolveSync(name, from)}'`;
    writeFileSync(join(dir, 'string-width.js'), patchStringWidth(readFileSync(widthPath, 'utf8')).replace(/from '(strip-ansi|get-east-asian-width)'/g, resolved(widthPath)));
    writeFileSync(
      join(dir, 'wrap-ansi.js'),
      lazySegmenter(readFileSync(wrapPath, 'utf8'))
        .replace(/from 'string-width'/g, "from './string-width.js'")
        .replace(/from '(strip-ansi|ansi-styles)'/g, resolved(wrapPath)),
    );
    // Counts the Segmenters built from here on (the patched modules look Intl.Segmenter up when they build one).
    const intl = Intl as { Segmenter: typeof Intl.Segmenter };
    const Original = intl.Segmenter;
    let built = 0;
    intl.Segmenter = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        built++;
      }
    };
    try {
      const patched = ((await import(join(dir, 'wrap-ansi.js'))) as { default: typeof wrapAnsi }).default;
      expect(built).toBe(0);
      // Printable ASCII takes both modules' fast paths.
      expect(patched('plain words that wrap', 10, { hard: true })).toBe(wrapAnsi('plain words that wrap', 10, { hard: true }));
      expect(built).toBe(0);
      for (const text of ['日本語のテキストを折り返す', 'e\u0301 café 👨‍👩‍👧 family', '\u001b[31mred ✓ text\u001b[39m that wraps']) {
        for (const width of [4, 7, 12]) expect(patched(text, width, { hard: true, trim: true, wordWrap: true })).toBe(wrapAnsi(text, width, { hard: true, trim: true, wordWrap: true }));
      }
      // One each, built when first needed and kept.
      expect(built).toBe(2);
    } finally {
      intl.Segmenter = Original;
    }
  });

  test("chalk's supports-color asks the tty binding, not node:tty, and decides the same", async () => {
    const path = join(Bun.resolveSync('chalk', import.meta.dir), '..', 'vendor', 'supports-color', 'index.js');
    const source = readFileSync(path, 'utf8');
    const patched = supportsColorWithoutNodeTty(source);
    expect(patched).not.toContain("from 'node:tty'");
    expect(patched.match(/process\.binding\('tty_wrap'\)\.isTTY\(fd\)/g)?.length).toBe(1);
    expect(() => supportsColorWithoutNodeTty(source.replace("import tty from 'node:tty';", ''))).toThrow('chalk changed');
    expect(() => supportsColorWithoutNodeTty(`${source}\ntty.setRawMode(true);`)).toThrow('chalk changed');
    const dir = tempDir('supports-color-');
    writeFileSync(join(dir, 'index.js'), patched);
    const mine = ((await import(join(dir, 'index.js'))) as { default: unknown }).default;
    const theirs = ((await import(path)) as { default: unknown }).default;
    expect(mine).toEqual(theirs);
    // The binding and node:tty agree on every standard descriptor here.
    const wrap = process.binding('tty_wrap') as { isTTY(fd: number): boolean };
    const tty = await import('node:tty');
    for (const fd of [0, 1, 2]) expect(wrap.isTTY(fd)).toBe(tty.isatty(fd));
  });

  test('the one-column class holds what the first frame draws, and nothing two columns wide or joining', () => {
    const oneColumn = new RegExp(`^[${oneColumnClass()}]$`);
    for (const c of ['·', '⛨', '─', '│', '╭', '›', '…', '✓', '●', '↑', 'é', '©']) expect(oneColumn.test(c)).toBe(true);
    // Wide, zero-width, combining, joining and emoji code points stay on the full path.
    for (const c of ['日', '한', '\u0301', '\u200d', '\u200b', '\u00ad', '\u1100', '\u1161', '⌚', '☕', '\ufe0f']) expect(oneColumn.test(c)).toBe(false);
  });

  test('the patched module gives the widths the original gives', async () => {
    const path = Bun.resolveSync('string-width', import.meta.dir);
    const oneColumn = oneColumnClass();
    // The patched copy outside node_modules: its two imports resolved from string-width's own folder.
    const source = patchStringWidth(readFileSync(path, 'utf8'), oneColumn).replace(/from '(strip-ansi|get-east-asian-width)'/g, (_m, name: string) => `from '${Bun.resolveSync(name, path)}'`);
    const dir = tempDir('string-width-');
    writeFileSync(join(dir, 'index.js'), source);
    const patched = ((await import(join(dir, 'index.js'))) as { default: (s: string, o?: { ambiguousIsNarrow?: boolean }) => number }).default;
    const samples = ['abc', '· ⛨ sandboxed', '─'.repeat(10), '日本語', 'e\u0301', '😀', '👍🏽', '👨‍👩‍👧', '🇫🇷', '#️⃣', '1⃣', '❤', '❤️', '🏴󠁧󠁢󠁳󠁣󠁴󠁿', '\u001b[31mred\u001b[0m ✓', 'ﾃｽﾄ', '한국어', '\u1100\u1161', 'a\u200bb', '⛩ ☕ ©️ ™'];
    for (const s of samples) expect(patched(s)).toBe(stringWidth(s));

    // Every code point the fast path takes, alone and with ambiguous width as wide.
    const members = [...new RegExp(`[${oneColumn}]`, 'g')[Symbol.matchAll](String.fromCodePoint(...Array.from({ length: 0x2c00 - 0xa0 }, (_, i) => 0xa0 + i)))].map((m) => m[0]);
    expect(members.length).toBeGreaterThan(5000);
    for (const c of members) {
      expect(patched(c)).toBe(stringWidth(c));
      expect(patched(c, { ambiguousIsNarrow: false })).toBe(stringWidth(c, { ambiguousIsNarrow: false }));
    }

    // Random strings mixing the fast path's code points with ASCII and with what must not take it.
    const others = ['日', '한', '\u0301', '\u200d', '\u200b', '\u1100', '\u1161', '\u11a8', '😀', '🇫', '🇷', '\ufe0f', '\u20e3', '\u0e31', '\u0915', '\u094d', '\t', '\u001b[1m', '\u001b[22m'];
    const ascii = Array.from({ length: 0x5f }, (_, i) => String.fromCharCode(0x20 + i));
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pools = [members, ascii, others];
    for (let i = 0; i < 3000; i++) {
      let s = '';
      const length = 1 + random(24);
      for (let j = 0; j < length; j++) {
        const pool = pools[random(10) < 6 ? 0 : random(10) < 7 ? 1 : 2] ?? members;
        s += pool[random(pool.length)] ?? '';
      }
      expect([s, patched(s)]).toEqual([s, stringWidth(s)]);
    }
  });
});
