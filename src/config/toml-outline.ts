/**
 * A light scanner that maps a TOML document's keys to where they are in the
 * text. smol-toml parses values but reports no positions for keys, and we
 * need them twice: to say on which line a bad key sits, and to insert a
 * permission rule into an existing array without rewriting (and losing the
 * comments of) the rest of the file.
 *
 * It expects text that smol-toml has already accepted; on anything odd it
 * moves on rather than throwing, because a slightly wrong line number beats
 * no error message at all.
 */

export interface Span {
  start: number;
  end: number;
}

export interface ArraySpan {
  /** Offset of `[`. */
  open: number;
  /** Offset of the closing `]`. */
  close: number;
  elements: Span[];
}

export interface KeyEntry {
  /** The `[table]` header the key sits under ([] for the root table). */
  table: string[];
  /** The full path: table + dotted key (+ the keys of enclosing inline tables). */
  path: string[];
  /** Offset of the key's first character. */
  start: number;
  value: Span;
  array?: ArraySpan;
  inlineTable: boolean;
}

export interface HeaderEntry {
  path: string[];
  start: number;
  /** Offset just past the header line's newline (or the end of the text). */
  lineEnd: number;
}

export interface TomlOutline {
  keys: KeyEntry[];
  headers: HeaderEntry[];
  /** 1-based line of an offset. */
  lineAt(offset: number): number;
}

const BARE = /[A-Za-z0-9_-]/;

class Scanner {
  i = 0;
  readonly keys: KeyEntry[] = [];
  readonly headers: HeaderEntry[] = [];
  private table: string[] = [];

  constructor(private readonly s: string) {}

  run(): void {
    const s = this.s;
    while (this.i < s.length) {
      const before = this.i;
      this.skipBlank();
      const c = s[this.i];
      if (c === undefined) break;
      if (c === '\n' || c === '\r') this.i++;
      else if (c === '#') this.skipComment();
      else if (c === '[') this.header();
      else {
        this.keyValue(this.table, []);
        this.skipToLineEnd(); // a trailing comment
      }
      if (this.i === before) this.i++; // never loop in place on unexpected input
    }
  }

  private header(): void {
    const start = this.i;
    this.i += this.s[this.i + 1] === '[' ? 2 : 1;
    const path = this.readKey();
    this.table = path;
    this.skipToLineEnd();
    if (this.s[this.i] === '\r') this.i++;
    if (this.s[this.i] === '\n') this.i++;
    this.headers.push({ path, start, lineEnd: this.i });
  }

  /** `key = value` at the current position; `prefix` is the key path of an enclosing inline table. */
  private keyValue(table: string[], prefix: string[]): void {
    const start = this.i;
    const key = this.readKey();
    this.skipBlank();
    if (this.s[this.i] !== '=' || key.length === 0) return;
    this.i++;
    this.skipBlank();
    const entry: KeyEntry = {
      table,
      path: [...table, ...prefix, ...key],
      start,
      value: { start: this.i, end: this.i },
      inlineTable: this.s[this.i] === '{',
    };
    this.keys.push(entry);
    const array = this.value(table, [...prefix, ...key]);
    entry.value.end = this.i;
    if (array) entry.array = array;
  }

  /** Skips one value; returns the element spans when it is an array. */
  private value(table: string[], keyPath: string[] | null): ArraySpan | undefined {
    const s = this.s;
    const c = s[this.i];
    if (c === '"' || c === "'") {
      this.skipString();
    } else if (c === '[') {
      const open = this.i++;
      const elements: Span[] = [];
      for (;;) {
        this.skipSpace();
        if (this.i >= s.length) return undefined;
        if (s[this.i] === ']') break;
        const start = this.i;
        this.value(table, null);
        if (this.i === start) this.i++;
        elements.push({ start, end: this.i });
        this.skipSpace();
        if (s[this.i] === ',') this.i++;
      }
      const close = this.i++;
      return { open, close, elements };
    } else if (c === '{') {
      this.i++;
      for (;;) {
        this.skipSpace();
        if (this.i >= s.length) return undefined;
        if (s[this.i] === '}') break;
        const before = this.i;
        if (keyPath) this.keyValue(table, keyPath);
        else {
          this.readKey();
          this.skipBlank();
          if (s[this.i] === '=') this.i++;
          this.skipBlank();
          this.value(table, null);
        }
        if (this.i === before) this.i++;
        this.skipSpace();
        if (s[this.i] === ',') this.i++;
      }
      this.i++;
    } else {
      // Numbers, booleans, dates ("1979-05-27 07:32:00" has a space): up to a delimiter.
      while (this.i < s.length && !',]}#\n\r'.includes(s[this.i] ?? '')) this.i++;
      while (this.i > 0 && (s[this.i - 1] === ' ' || s[this.i - 1] === '\t')) this.i--;
    }
    return undefined;
  }

  private readKey(): string[] {
    const parts: string[] = [];
    for (;;) {
      this.skipBlank();
      const part = this.simpleKey();
      if (part === null) break;
      parts.push(part);
      this.skipBlank();
      if (this.s[this.i] !== '.') break;
      this.i++;
    }
    return parts;
  }

  private simpleKey(): string | null {
    const s = this.s;
    const c = s[this.i];
    if (c === '"' || c === "'") {
      const start = this.i;
      this.skipString();
      const raw = s.slice(start, this.i);
      if (c === "'") return raw.slice(1, -1);
      try {
        return JSON.parse(raw) as string;
      } catch {
        return raw.slice(1, -1);
      }
    }
    const start = this.i;
    while (this.i < s.length && BARE.test(s[this.i] ?? '')) this.i++;
    return this.i > start ? s.slice(start, this.i) : null;
  }

  private skipString(): void {
    const s = this.s;
    const q = s[this.i] ?? '"';
    const basic = q === '"';
    if (s.startsWith(q.repeat(3), this.i)) {
      this.i += 3;
      while (this.i < s.length && !s.startsWith(q.repeat(3), this.i)) this.i += basic && s[this.i] === '\\' ? 2 : 1;
      this.i += 3;
      // Up to two quotes right before the closing delimiter belong to the content ("""a"""").
      for (let extra = 0; extra < 2 && s[this.i] === q; extra++) this.i++;
      return;
    }
    this.i++;
    while (this.i < s.length && s[this.i] !== q && s[this.i] !== '\n') this.i += basic && s[this.i] === '\\' ? 2 : 1;
    this.i++;
  }

  private skipBlank(): void {
    while (this.s[this.i] === ' ' || this.s[this.i] === '\t') this.i++;
  }

  /** Whitespace, newlines and comments (inside arrays and inline tables). */
  private skipSpace(): void {
    for (;;) {
      const c = this.s[this.i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.i++;
      else if (c === '#') this.skipComment();
      else return;
    }
  }

  private skipComment(): void {
    while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
  }

  private skipToLineEnd(): void {
    while (this.i < this.s.length && this.s[this.i] !== '\n') this.i++;
  }
}

export function outlineToml(source: string): TomlOutline {
  const scanner = new Scanner(source);
  scanner.run();
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') lineStarts.push(i + 1);
  const lineAt = (offset: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStarts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  return { keys: scanner.keys, headers: scanner.headers, lineAt };
}

function prefixLength(path: readonly (string | number)[], of: readonly string[]): number {
  let n = 0;
  while (n < of.length && path[n] === of[n]) n++;
  return n;
}

/**
 * The line a key path (as zod reports it, array indices included) is written
 * on: the deepest key or table header that is a prefix of the path, or the
 * array element when the path ends in an index. A path that only exists as
 * the start of longer keys (`a` for `[a.b]`) points at the first of them.
 */
export function lineOfPath(outline: TomlOutline, path: readonly (string | number)[]): number {
  let best: { depth: number; offset: number } | undefined;
  const consider = (of: string[], offset: number, array?: ArraySpan): void => {
    if (prefixLength(path, of) !== of.length) return;
    let depth = of.length;
    const index = path[of.length];
    if (array && typeof index === 'number' && array.elements[index]) {
      offset = array.elements[index].start;
      depth += 1;
    }
    if (!best || depth > best.depth) best = { depth, offset };
  };
  for (const h of outline.headers) consider(h.path, h.start);
  for (const k of outline.keys) consider(k.path, k.start, k.array);
  if (best && best.depth > 0) return outline.lineAt(best.offset);

  const starts = [...outline.headers, ...outline.keys]
    .filter((e) => prefixLength(path, e.path) === path.length)
    .map((e) => e.start);
  return starts.length > 0 ? outline.lineAt(Math.min(...starts)) : 1;
}
