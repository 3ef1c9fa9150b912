/**
 * string_transform against independent references. Grapheme clusters: ICU's
 * segmenter (Intl.Segmenter in Bun: ICU 78, Unicode 17, the version of our
 * tables) on every string of Unicode's GraphemeBreakTest.txt (Debian's
 * unicode-data) and on random strings of the characters the rules are about;
 * the file's own expected breaks are Unicode 15.0's, so where 17.0 changed a
 * rule (GB9c, Indic conjuncts) it is ICU that decides. Slugs: the same slug
 * for NFC and NFD input (JavaScript's normalize), and Latin folding as Python
 * does it (NFD, marks removed).
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { buildNative, ok } from './native.ts';

beforeAll(buildNative, 120_000);

const TEST_FILE = '/usr/share/unicode/auxiliary/GraphemeBreakTest.txt';
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const icuClusters = (s: string) => [...segmenter.segment(s)].map((x) => x.segment);

interface Case {
  text: string;
  /** The file's clusters (Unicode 15.0's rules). */
  expected: string[];
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const line of readFileSync(TEST_FILE, 'utf8').split('\n')) {
    const body = line.split('#')[0]?.trim() ?? '';
    if (body === '') continue;
    const clusters: string[] = [];
    let current = '';
    for (const tok of body.split(/\s+/)) {
      if (tok === '÷') {
        if (current !== '') clusters.push(current);
        current = '';
      } else if (tok !== '×') current += String.fromCodePoint(parseInt(tok, 16));
    }
    out.push({ text: clusters.join(''), expected: clusters });
  }
  return out;
}

/**
 * Checks many strings in one run of the tool: joined by LF, which every rule
 * breaks around, reversing the whole reverses the order of the strings and
 * each string's clusters; the cluster count is their sum plus the LFs.
 */
async function agreeWithIcu(texts: string[]): Promise<{ ok: boolean; firstMismatch?: string }> {
  const joined = texts.join('\n');
  const reversed = (await ok('string_transform', ['reverse', '--', joined])).content;
  const want = texts.map((t) => icuClusters(t).reverse().join('')).reverse().join('\n');
  const count = (await ok('string_transform', ['length', '--', joined])).metadata as { graphemes: number };
  const wantCount = texts.reduce((n, t) => n + icuClusters(t).length, 0) + texts.length - 1;
  if (reversed === want && count.graphemes === wantCount) return { ok: true };
  // Find the first string that differs, for the message.
  for (const t of texts) {
    const r = (await ok('string_transform', ['reverse', '--', t])).content;
    if (r !== icuClusters(t).reverse().join('')) return { ok: false, firstMismatch: [...t].map((c) => (c.codePointAt(0) as number).toString(16)).join(' ') };
  }
  return { ok: false, firstMismatch: 'count only' };
}

describe('grapheme clusters (UAX #29)', () => {
  test('every string of GraphemeBreakTest.txt splits as ICU splits it; the file agrees except where Unicode changed the rules', async () => {
    const all = cases();
    expect(all.length).toBeGreaterThan(600);
    // The file has LF and CR cases of its own: those go one by one, the rest in one run.
    const withNewline = all.filter((c) => /[\n\r]/.test(c.text));
    const rest = all.filter((c) => !/[\n\r]/.test(c.text));
    expect(await agreeWithIcu(rest.map((c) => c.text))).toEqual({ ok: true });
    for (const c of withNewline) expect(await agreeWithIcu([c.text])).toEqual({ ok: true });
    // Where Unicode 17 differs from the file's 15.0: U+2701 (upper blade scissors) is no longer Extended_Pictographic in 17.0's data,
    // so 2701 ZWJ 2701 is two clusters now. Nothing else in the file changed.
    const differentFrom15 = all.filter((c) => JSON.stringify(icuClusters(c.text)) !== JSON.stringify(c.expected));
    expect(differentFrom15.map((c) => [...c.text].map((ch) => (ch.codePointAt(0) as number).toString(16)).join(' '))).toEqual(['2701 200d 2701']);
  }, 60_000);

  test('random strings of the characters the rules are about split as ICU splits them', async () => {
    const pool = [
      ...'\r\n\t\u0000\u00AD\u200B\u200C\u200D\u0300\u0308\u0903\u093F\u0600\u0605\u110B\u1100\u1161\u11A8\uAC00\uAC01\u1F1E6'.split(''),
      '\u{1F1E6}', '\u{1F1E9}', '\u{1F1EA}', '\u{1F469}', '\u{1F4BB}', '\u{1F3FD}', '\u2764', '\uFE0F', '\u{E0061}', '\u{1F3F4}',
      '\u0915', '\u0937', '\u094D', '\u093C', '\u0A15', '\u0D15', '\u0D4D', '\u0E01', '\u0E48', '\u0E33', 'a', ' ', '\u{11720}', '\u{1D165}',
    ];
    let seed = 17;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const texts = Array.from({ length: 3000 }, () => Array.from({ length: 1 + rand(8) }, () => pool[rand(pool.length)]).join('').replace(/[\r\n]/g, 'x'));
    expect(await agreeWithIcu(texts)).toEqual({ ok: true });
  }, 60_000);

  test('the cases people meet: Hangul jamo, Indic conjuncts, Thai, emoji ZWJ sequences, flags, skin tones', async () => {
    for (const [text, n] of [['\u1100\u1161\u11A8', 1], ['क्षत्रिय', 3], ['สวัสดี', 4], ['👨‍👩‍👧‍👦', 1], ['🇯🇵🇰🇷', 2], ['👋🏿', 1], ['e\u0301\u0327', 1]] as const) {
      expect({ text, n: ((await ok('string_transform', ['length', '--', text])).metadata as { graphemes: number }).graphemes }).toEqual({ text, n: icuClusters(text).length });
      expect(icuClusters(text).length).toBe(n);
    }
  });
});

describe('slugify', () => {
  const corpus = [
    'Crème Brûlée', 'Ærøskøbing Ŀlibre', 'São Paulo — Ação', 'Dvořák: Slavonic Dances', 'Łódź i Gdańsk', 'Việt Nam Đà Nẵng', 'Ελληνικά: Ἀθῆναι', 'Привет, мир! Ёлка й',
    'がんばって ガンバッテ', '한국어 문장', 'हिन्दी क़िला', 'Tiếng Việt có dấu', 'ﬁancé ＡＢＣ', 'Ǆemal ǅ', 'ṩ ẛ ǻ', 'עברית שָׁלוֹם', 'العربيّة', '日本語テキスト',
  ];

  test('NFC and NFD input give the same slug, in every script', async () => {
    for (const text of corpus) {
      const nfc = (await ok('string_transform', ['slugify', '--', text.normalize('NFC')])).content;
      const nfd = (await ok('string_transform', ['slugify', '--', text.normalize('NFD')])).content;
      expect({ text, nfd }).toEqual({ text, nfd: nfc });
    }
  });

  test("Latin text folds as Python's NFD-and-drop-marks does; other scripts keep their letters", async () => {
    const latin = ['Crème Brûlée', 'São Paulo Ação', 'Dvořák Slavonic', 'Việt Nam Nẵng', 'Ångström Öl Ñandú', 'Çà et là Éire'];
    for (const text of latin) {
      const py = Bun.spawnSync(['python3', '-c', 'import sys, unicodedata, re; s = unicodedata.normalize("NFD", sys.argv[1].lower()); s = "".join(c for c in s if unicodedata.category(c) != "Mn"); print("-".join(w for w in re.split(r"[^0-9a-z]+", s) if w))', text]);
      expect((await ok('string_transform', ['slugify', '--', text])).content).toBe(py.stdout.toString().trim());
    }
    expect((await ok('string_transform', ['slugify', '--', 'がんばって 한국어 हिन्दी'])).content).toBe('がんばって-한국어-हिन्दी');
    expect((await ok('string_transform', ['slugify', '--', 'Łódź Ærø Straße'])).content).toBe('lodz-aero-strasse');
  });
});
