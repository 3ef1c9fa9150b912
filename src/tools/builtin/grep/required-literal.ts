/**
 * The longest literal run every match of a regex must contain, or undefined.
 * grep uses it as a prefilter: a byte search (`Buffer.indexOf`, native and
 * fast) rules out most files before any UTF-8 decoding or regex work.
 *
 * Conservative by design: anything we do not fully understand ends the
 * current run, groups and classes are skipped whole, and top-level
 * alternation (`a|b`) means no literal at all. Wrongly returning a literal
 * would hide real matches; wrongly returning none only costs speed.
 */
const META = new Set(['.', '^', '$', '(', ')', '[', ']', '{', '}', '|', '?', '*', '+']);
/** Escapes that stand for the character itself. */
const ESCAPED_LITERAL = /[\\/.^$()[\]{}|?*+\-]/;

export function requiredLiteral(source: string, minLength = 2): string | undefined {
  let best = '';
  let run = '';
  const endRun = (): void => {
    if (run.length > best.length) best = run;
    run = '';
  };
  /** A quantifier may make the previous atom optional (or repeat it): drop it from the run. */
  const quantified = (): void => {
    run = run.slice(0, -1);
    endRun();
  };
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    if (c === '\\') {
      const next = source[i + 1];
      if (next === undefined) return undefined;
      if (ESCAPED_LITERAL.test(next)) {
        run += next;
      } else {
        endRun(); // \d, \w, \b, \n, \x41, \u{…}, \p{L}, back-references: not a plain literal
        i = skipEscape(source, i);
        continue;
      }
      i += 2;
      continue;
    }
    if (c === '|') return undefined;
    if (c === '[') {
      endRun();
      i = skipClass(source, i);
      continue;
    }
    if (c === '(') {
      endRun();
      const close = skipGroup(source, i);
      if (close === -1) return undefined;
      i = close;
      // A quantifier on the group changes nothing: its contents were not used.
      continue;
    }
    if (c === '?' || c === '*') {
      quantified();
      i++;
      continue;
    }
    if (c === '+') {
      // The atom is required at least once; only what follows is no longer adjacent.
      endRun();
      i++;
      continue;
    }
    if (c === '{') {
      const m = /^\{(\d+)(,\d*)?\}/.exec(source.slice(i));
      if (m !== null) {
        if (m[1] === '0') quantified();
        else endRun();
        i += m[0].length;
        continue;
      }
      run += c; // a lone `{` is literal in JavaScript's non-unicode regexes
      i++;
      continue;
    }
    if (META.has(c)) {
      endRun();
      i++;
      continue;
    }
    run += c;
    i++;
  }
  endRun();
  return best.length >= minLength ? best : undefined;
}

/** Index just past the `]` closing the class opened at `start`. */
function skipClass(source: string, start: number): number {
  let i = start + 1;
  if (source[i] === '^') i++;
  if (source[i] === ']') i++; // a leading `]` is literal
  while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
  return i + 1;
}

/** Index just past the `)` closing the group opened at `start`, or -1 if unbalanced. */
function skipGroup(source: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < source.length) {
    const c = source[i];
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '[') {
      i = skipClass(source, i);
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')') {
      depth--;
      if (depth === 0) return i + 1;
    }
    i++;
  }
  return -1;
}

/** Index just past the escape sequence at `start` (a backslash followed by a non-literal). */
function skipEscape(source: string, start: number): number {
  const kind = source[start + 1];
  const after = start + 2;
  const through = (close: string): number => {
    const end = source.indexOf(close, after);
    return end === -1 ? source.length : end + 1;
  };
  switch (kind) {
    case 'x':
      return after + 2;
    case 'u':
      return source[after] === '{' ? through('}') : after + 4;
    case 'c':
      return after + 1;
    case 'k':
      return source[after] === '<' ? through('>') : after;
    case 'p':
    case 'P':
      return source[after] === '{' ? through('}') : after;
    default: {
      let i = after;
      if (kind !== undefined && kind >= '0' && kind <= '9') while (i < source.length && /[0-9]/.test(source[i] ?? '')) i++;
      return i;
    }
  }
}
