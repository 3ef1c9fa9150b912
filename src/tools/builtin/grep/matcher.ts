/** Regex matching with grep's line semantics. */
import { ToolError } from '../../types.ts';
import { requiredLiteral } from './required-literal.ts';

/**
 * Regex matching with grep's line semantics, run over a whole file at once.
 * Scanning the whole text with one global regex is much faster than testing
 * line by line; a match that spills over a newline (`\s+`, `[^x]`) is then
 * re-checked against its own line, so results equal line-by-line grep.
 */
export interface Matcher {
  /** Global; `m` so ^/$ are line anchors; `s` too in multiline mode. */
  readonly re: RegExp;
  /** The same pattern without `g`, for checking one line on its own. */
  readonly lineRe: RegExp;
  readonly multiline: boolean;
  /** Bytes every matching file must contain (see required-literal.ts). */
  readonly literal: Buffer | undefined;
}

export function compileMatcher(pattern: string, ignoreCase: boolean, multiline: boolean): Matcher {
  let flags = 'm';
  if (ignoreCase) flags += 'i';
  if (multiline) flags += 's';
  // Unicode property escapes need the `u` flag, which rejects escapes like `\-`; use it only when asked for.
  if (/\\[pP]\{/.test(pattern)) flags += 'u';
  let re: RegExp;
  let lineRe: RegExp;
  try {
    re = new RegExp(pattern, `${flags}g`);
    lineRe = new RegExp(pattern, flags);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new ToolError(`Invalid regular expression ${JSON.stringify(pattern)}: ${why}. Use JavaScript RegExp syntax and escape special characters (e.g. \\( \\. \\[) to match them literally.`);
  }
  let literal = requiredLiteral(pattern);
  // A case-insensitive byte search would need case folding; only letterless literals stay exact.
  if (literal !== undefined && ignoreCase && literal.toLowerCase() !== literal.toUpperCase()) literal = undefined;
  return { re, lineRe, multiline, literal: literal === undefined ? undefined : Buffer.from(literal, 'utf8') };
}

/** A matched stretch of a file: 1-based line numbers, inclusive (equal unless multiline). */
export interface MatchRange {
  start: number;
  end: number;
}

/**
 * Calls `onMatch` for each matching line (or, in multiline mode, each match's
 * span of lines) in order; stops when it returns false.
 */
export function scanMatches(text: string, m: Matcher, onMatch: (range: MatchRange) => boolean): void {
  const re = m.re;
  re.lastIndex = 0;
  // Line numbers are counted lazily, from the last position we knew.
  let countedTo = 0;
  let line = 1;
  const lineAt = (index: number): number => {
    for (let nl = text.indexOf('\n', countedTo); nl !== -1 && nl < index; nl = text.indexOf('\n', nl + 1)) line++;
    countedTo = Math.max(countedTo, index);
    return line;
  };
  for (let found = re.exec(text); found !== null; found = re.exec(text)) {
    const at = found.index;
    const len = found[0].length;
    // After a final newline there is no line left, only the end of the text (`^`, `$`, `x*` match there).
    if (at === text.length && (at === 0 || text.charCodeAt(at - 1) === 10)) return;
    if (m.multiline) {
      const start = lineAt(at);
      // A newline ending the match belongs to the line it ends, not the next one.
      const end = len === 0 ? start : lineAt(at + len - 1);
      if (!onMatch({ start, end })) return;
      if (len === 0) re.lastIndex = at + 1;
      continue;
    }
    const lineStart = text.lastIndexOf('\n', at - 1) + 1;
    let lineEnd = text.indexOf('\n', at);
    if (lineEnd === -1) lineEnd = text.length;
    // A match that crosses the line end does not count unless the line matches on its own.
    const ok = at + len <= lineEnd || m.lineRe.test(text.slice(lineStart, lineEnd));
    if (ok && !onMatch({ start: lineAt(lineStart), end: lineAt(lineStart) })) return;
    if (lineEnd >= text.length) return;
    re.lastIndex = lineEnd + 1;
  }
}
