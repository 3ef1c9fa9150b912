/**
 * Line wrapping for pre-rendered, styled text. Everything the transcript shows
 * is turned into lines no wider than the terminal here, so the height of every
 * element is known exactly (the live region must stay shorter than the screen)
 * and Ink never has to wrap again.
 */
import stringWidth from 'string-width';
import wrapAnsi from 'wrap-ansi';

export { stringWidth };

/** Word-wraps styled text; continuation lines get `indent` (first line gets `first`). */
export function wrapText(text: string, width: number, first = '', indent = ''): string[] {
  const avail = Math.max(1, width - Math.max(stringWidth(first), stringWidth(indent)));
  const out: string[] = [];
  for (const para of text.split('\n')) {
    const wrapped = wrapAnsi(para, avail, { hard: true, trim: true, wordWrap: true }).split('\n');
    for (const line of wrapped) out.push((out.length === 0 ? first : indent) + line);
  }
  return out;
}

/** Hard-wraps without touching whitespace: for code, diffs and command output. */
export function wrapHard(line: string, width: number): string[] {
  if (stringWidth(line) <= width) return [line];
  return wrapAnsi(line, Math.max(4, width), { hard: true, trim: false, wordWrap: false }).split('\n');
}

/** Cuts a styled line to `width` columns, marking the cut with an ellipsis. */
export function truncate(line: string, width: number): string {
  if (stringWidth(line) <= width) return line;
  const cut = wrapAnsi(line, Math.max(1, width - 1), { hard: true, trim: false, wordWrap: false }).split('\n')[0] ?? '';
  return `${cut}…`;
}

/** Prefixes every line (e.g. a quote bar or an indent). */
export function prefixLines(lines: string[], first: string, rest = first): string[] {
  return lines.map((l, i) => (i === 0 ? first : rest) + l);
}
