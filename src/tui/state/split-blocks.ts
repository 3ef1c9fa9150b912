/**
 * Where a streaming markdown message can be cut: every top-level block but
 * the last one is finished (a later line can only extend the last block), so
 * those go to `<Static>` at once and only the last block stays live.
 * Cuts fall on real lexer block boundaries, so blocks committed separately
 * render exactly as they would inside the whole message.
 */
import { lex } from '../render/markdown.ts';

/** Length of the finished prefix of `text` (0 when nothing is finished yet). */
export function finishedPrefix(text: string): number {
  if (!text.includes('\n')) return 0;
  const tokens = lex(text);
  let lastVisible = -1;
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i];
    if (t && t.type !== 'space' && t.type !== 'def') {
      lastVisible = i;
      break;
    }
  }
  if (lastVisible <= 0) return 0;
  let offset = 0;
  for (let i = 0; i < lastVisible; i++) offset += tokens[i]?.raw.length ?? 0;
  // The lexer normalises line endings; if its raws do not add up to our text, do not cut.
  const consumed = tokens.reduce((n, t) => n + t.raw.length, 0);
  if (consumed !== text.length) return 0;
  return offset;
}
