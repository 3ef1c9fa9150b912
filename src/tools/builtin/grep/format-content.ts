/** Formats Grep's content-mode output. */
import type { MatchRange } from './matcher.ts';

/** Content-mode lines longer than this are cut: one minified line should not flood the context. */
export const MAX_GREP_LINE_CHARS = 1000;

function cut(line: string): string {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  return text.length > MAX_GREP_LINE_CHARS ? `${text.slice(0, MAX_GREP_LINE_CHARS)}… [line truncated]` : text;
}

/**
 * ripgrep's content layout: `path:12:text` for matching lines, `path-13-text`
 * for context lines, `--` between groups that are not adjacent.
 */
export function formatContent(
  shown: string,
  text: string,
  ranges: readonly MatchRange[],
  before: number,
  after: number,
  lineNumbers: boolean,
): string[] {
  const lines = text.split('\n');
  const total = text.endsWith('\n') ? lines.length - 1 : lines.length;
  const matched = new Set<number>();
  const windows: MatchRange[] = [];
  for (const r of ranges) {
    for (let n = r.start; n <= r.end; n++) matched.add(n);
    const start = Math.max(1, r.start - before);
    const end = Math.min(total, r.end + after);
    const last = windows[windows.length - 1];
    if (last !== undefined && start <= last.end + 1) last.end = Math.max(last.end, end);
    else windows.push({ start, end });
  }
  const rows: string[] = [];
  for (const [i, w] of windows.entries()) {
    if (i > 0) rows.push('--');
    for (let n = w.start; n <= w.end; n++) {
      const sep = matched.has(n) ? ':' : '-';
      const body = cut(lines[n - 1] ?? '');
      rows.push(lineNumbers ? `${shown}${sep}${n}${sep}${body}` : `${shown}${sep}${body}`);
    }
  }
  return rows;
}
