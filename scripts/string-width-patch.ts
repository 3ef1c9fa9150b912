/**
 * Build-time changes to the terminal-text libraries the TUI's first frame
 * loads: string-width (the column counting of Ink and of the TUI's own
 * wrapping), wrap-ansi and chalk's supports-color. string-width tests every
 * non-ASCII grapheme against /^\p{RGI_Emoji}$/v, and the first test compiles
 * that class of ~3,600 strings: 8-9 ms, paid before the first frame because
 * the status line holds "·" and "⛨". Every RGI emoji holds a non-ASCII code
 * point that is Emoji or Emoji_Component, so the RGI test now runs only for
 * graphemes holding one: `A || B` becomes `(P && A) || B` with A implying P,
 * the same widths, and text without emoji never compiles the class.
 * A second change adds a fast path beside string-width's own for printable
 * ASCII: a string made only of ASCII and of code points that are one column
 * and a grapheme of their own (box drawing, "·", "⛨", arrows, Latin-1, …: the
 * TUI's own chrome) is as many columns as it has UTF-16 units. Which code
 * points qualify is worked out at build time with string-width itself and
 * Intl.Segmenter (`oneColumnClass`), so it follows the installed versions;
 * the first frame's borders and status line then skip the per-grapheme work.
 * A third change, to string-width and to wrap-ansi, makes the Intl.Segmenter
 * each builds when it loads a lazy one: the first Segmenter of a process
 * loads ICU's break rules (2-3 ms), and the TUI loads both modules before its
 * first frame, whose text takes the fast paths and segments nothing.
 * A fourth change, to chalk's supports-color, asks Bun's tty binding whether
 * stdout and stderr are terminals instead of importing node:tty, which loads
 * Node's stream modules (2-3 ms before the first frame, which is drawn before
 * any stream exists: src/tui/terminal.ts); node:tty answers where the binding
 * is missing.
 * The four together: built without this plugin, the TUI's first frame came
 * 67 ms wall, 59 ms CPU later, Ink's 46 ms wall, 56 ms CPU
 * (scripts/bench/seam-paths.ts, 20 runs, load ~5).
 * test/tui/string-width-patch.test.ts checks the implication on every code
 * point and every sequence of Unicode's emoji data, compares the patched
 * module with the original on every qualifying code point and on random
 * strings, and checks that the patch applies.
 */
import stringWidth from 'string-width';

/** P: a non-ASCII Emoji or Emoji_Component code point (compiles in well under 1 ms). */
export const MAY_BE_RGI_EMOJI = String.raw`[[\p{Emoji}\p{Emoji_Component}]--[\x00-\x7F]]`;

const DECLARATION = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';
const TEST = 'if (rgiEmojiRegex.test(segment) ||';
const ASCII_FAST_PATH = 'if (/^[\\u0020-\\u007E]*$/.test(string)) {\n\t\treturn string.length;\n\t}';

/** The code points `oneColumnClass` considers: Latin-1 to the end of the symbol blocks a terminal UI draws with. */
const SCAN_FROM = 0xa0;
const SCAN_TO = 0x2bff;

/**
 * The code points in SCAN_FROM..SCAN_TO, as a regex class body, that
 * `width` (string-width) counts as one column and that Intl.Segmenter keeps
 * apart from themselves and from an ASCII letter on either side. That rules
 * out every Grapheme_Cluster_Break class but Other (Extend, SpacingMark and
 * ZWJ join what precedes, Prepend what follows, regional indicators and
 * Hangul jamo join their own kind; LV and LVT syllables are two columns), and
 * between two Others UAX #29 always breaks: a run of them is one grapheme per
 * code point, each one column.
 */
export function oneColumnClass(width: (s: string) => number = stringWidth): string {
  const segmenter = new Intl.Segmenter();
  const apart = (s: string) => [...segmenter.segment(s)].length === 2;
  const ranges: [number, number][] = [];
  for (let cp = SCAN_FROM; cp <= SCAN_TO; cp++) {
    const c = String.fromCodePoint(cp);
    if (width(c) !== 1 || !apart(c + c) || !apart(`a${c}`) || !apart(`${c}a`)) continue;
    const last = ranges.at(-1);
    if (last !== undefined && last[1] === cp - 1) last[1] = cp;
    else ranges.push([cp, cp]);
  }
  const u = (cp: number) => `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return ranges.map(([a, b]) => (a === b ? u(a) : `${u(a)}-${u(b)}`)).join('');
}

/**
 * string-width's index.js with the RGI test behind the cheap one and the
 * one-column fast path (`oneColumn`: a class body from `oneColumnClass`);
 * throws when the source no longer has the expected lines.
 */
export function patchStringWidth(source: string, oneColumn: string = oneColumnClass()): string {
  if (!source.includes(DECLARATION) || source.split(TEST).length !== 2 || source.split(ASCII_FAST_PATH).length !== 2) {
    throw new Error('string-width changed: scripts/string-width-patch.ts no longer finds the lines it patches');
  }
  return lazySegmenter(source)
    .replace(DECLARATION, `${DECLARATION}\nconst mayBeRgiEmoji = /${MAY_BE_RGI_EMOJI}/v;\nconst oneColumnRun = /^[\\u0020-\\u007E${oneColumn}]*$/;`)
    .replace(TEST, 'if ((mayBeRgiEmoji.test(segment) && rgiEmojiRegex.test(segment)) ||')
    .replace(
      ASCII_FAST_PATH,
      `${ASCII_FAST_PATH}\n\n\t// moat: one column and one grapheme per code point (scripts/string-width-patch.ts).\n\tif (ambiguousIsNarrow && oneColumnRun.test(string)) {\n\t\treturn string.length;\n\t}`,
    );
}

const SEGMENTER = 'const segmenter = new Intl.Segmenter();';

/**
 * A module's `const segmenter = new Intl.Segmenter();` (string-width's and
 * wrap-ansi's; both only call `segmenter.segment`) built on its first use;
 * throws when the source no longer has exactly that line.
 */
export function lazySegmenter(source: string): string {
  if (source.split(SEGMENTER).length !== 2) throw new Error('string-width or wrap-ansi changed: scripts/string-width-patch.ts no longer finds its Intl.Segmenter');
  return source.replace(SEGMENTER, 'let segmenterInstance;\nconst segmenter = {segment: (text) => (segmenterInstance ??= new Intl.Segmenter()).segment(text)};');
}

const TTY_IMPORT = "import tty from 'node:tty';";

/** chalk's vendored supports-color without its node:tty import (it only calls `tty.isatty`); throws when the line is gone. */
export function supportsColorWithoutNodeTty(source: string): string {
  if (source.split(TTY_IMPORT).length !== 2 || source.includes('tty.') === false || /\btty\.(?!isatty\()/.test(source)) {
    throw new Error("chalk changed: scripts/string-width-patch.ts no longer finds supports-color's node:tty import, or it uses more than isatty");
  }
  return source.replace(
    TTY_IMPORT,
    "const tty = {isatty: (fd) => {\n\ttry {\n\t\treturn process.binding('tty_wrap').isTTY(fd);\n\t} catch {\n\t\treturn require('node:tty').isatty(fd);\n\t}\n}};",
  );
}

/** The Bun plugin for scripts/build.ts. */
export const stringWidthPlugin: Bun.BunPlugin = {
  name: 'moat-string-width',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/ }, async (a) => ({ loader: 'js', contents: patchStringWidth(await Bun.file(a.path).text()) }));
    b.onLoad({ filter: /[\\/]node_modules[\\/]wrap-ansi[\\/]index\.js$/ }, async (a) => ({ loader: 'js', contents: lazySegmenter(await Bun.file(a.path).text()) }));
    b.onLoad({ filter: /[\\/]node_modules[\\/]chalk[\\/]source[\\/]vendor[\\/]supports-color[\\/]index\.js$/ }, async (a) => ({
      loader: 'js',
      contents: supportsColorWithoutNodeTty(await Bun.file(a.path).text()),
    }));
  },
};
