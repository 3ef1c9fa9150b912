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

const FENCE = /^ {0,3}(`{3,}|~{3,})([^\n`]*)\n/;

/**
 * When `text` is a fenced code block whose closing fence has not arrived:
 * its language and body lines so far (the last one possibly partial).
 */
export function openCodeBlock(text: string): { lang: string; lines: string[] } | undefined {
  const m = FENCE.exec(text);
  if (!m) return undefined;
  const fence = m[1] ?? '```';
  const body = text.slice(m[0].length);
  const lines = body.split('\n');
  const closer = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
  if (lines.some((l, i) => i < lines.length - 1 && closer.test(l))) return undefined;
  if (closer.test(lines[lines.length - 1] ?? '')) return undefined;
  return { lang: (m[2] ?? '').trim(), lines };
}

/** Splits off a leading fenced code block (closed or not): its language, body, and the text after it. */
export function splitLeadingCode(text: string): { lang: string; code: string; rest: string; closed: boolean } | undefined {
  const m = FENCE.exec(text);
  if (!m) return undefined;
  const fence = m[1] ?? '```';
  const closer = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`, 'm');
  const body = text.slice(m[0].length);
  const close = closer.exec(body);
  if (!close) return { lang: (m[2] ?? '').trim(), code: body.replace(/\n$/, ''), rest: '', closed: false };
  const code = body.slice(0, close.index).replace(/\n$/, '');
  return { lang: (m[2] ?? '').trim(), code, rest: body.slice(close.index + close[0].length), closed: true };
}
