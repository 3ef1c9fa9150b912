/**
 * A build-time change to string-width (the column counting of Ink and of the
 * TUI's own wrapping), for the TUI's first frame. string-width tests every
 * non-ASCII grapheme against /^\p{RGI_Emoji}$/v, and the first test compiles
 * that class of ~3,600 strings: 8-9 ms, paid before the first frame because
 * the status line holds "·" and "⛨". Every RGI emoji holds a non-ASCII code
 * point that is Emoji or Emoji_Component, so the RGI test now runs only for
 * graphemes holding one: `A || B` becomes `(P && A) || B` with A implying P,
 * the same widths, and text without emoji never compiles the class.
 * test/tui/string-width-patch.test.ts checks the implication on every code
 * point and every sequence of Unicode's emoji data, and that the patch applies.
 */

/** P: a non-ASCII Emoji or Emoji_Component code point (compiles in well under 1 ms). */
export const MAY_BE_RGI_EMOJI = String.raw`[[\p{Emoji}\p{Emoji_Component}]--[\x00-\x7F]]`;

const DECLARATION = 'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;';
const TEST = 'if (rgiEmojiRegex.test(segment) ||';

/** string-width's index.js with the RGI test behind the cheap one; throws when the source no longer has the expected lines. */
export function patchStringWidth(source: string): string {
  if (!source.includes(DECLARATION) || source.split(TEST).length !== 2) {
    throw new Error('string-width changed: scripts/string-width-patch.ts no longer finds the RGI emoji test it patches');
  }
  return source
    .replace(DECLARATION, `${DECLARATION}\nconst mayBeRgiEmoji = /${MAY_BE_RGI_EMOJI}/v;`)
    .replace(TEST, 'if ((mayBeRgiEmoji.test(segment) && rgiEmojiRegex.test(segment)) ||');
}

/** The Bun plugin for scripts/build.ts. */
export const stringWidthPlugin: Bun.BunPlugin = {
  name: 'moat-string-width',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/]string-width[\\/]index\.js$/ }, async (a) => ({ loader: 'js', contents: patchStringWidth(await Bun.file(a.path).text()) }));
  },
};
