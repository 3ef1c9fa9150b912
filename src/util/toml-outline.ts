/**
 * Where a TOML document's keys, tables and array elements are in its text,
 * read with toml-eslint-parser (a full TOML 1.0 parser that keeps ranges).
 * smol-toml gives values without positions; config files and tool manifests
 * both need positions — for `file:line` errors, and to insert a permission
 * rule into an existing array without rewriting (and losing the comments of)
 * the rest of the file. One locator serves both, so they cannot disagree.
 */
import type { AST } from 'toml-eslint-parser';
import type * as TomlParser from 'toml-eslint-parser';

// Loaded on the first outline: only an error message or a rule being saved
// needs positions. Imported statically it cost -p's first byte +2.7 ms wall,
// +4.9 ms CPU (scripts/bench/startup.ts, 30 interleaved runs).
let parser: typeof TomlParser | undefined;

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

export type TomlPath = (string | number)[];

export interface KeyEntry {
  /** The `[table]` header the key sits under ([] for the root table; `[[x]]` tables carry their index). */
  table: TomlPath;
  /** The full path: table + dotted key (+ the keys of enclosing inline tables). */
  path: TomlPath;
  /** Offset of the key's first character. */
  start: number;
  value: Span;
  array?: ArraySpan;
  inlineTable: boolean;
}

export interface HeaderEntry {
  path: TomlPath;
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

function keyNames(key: AST.TOMLKey): string[] {
  return key.keys.map((k) => (k.type === 'TOMLBare' ? k.name : k.value));
}

function lineEndAfter(source: string, offset: number): number {
  const nl = source.indexOf('\n', offset);
  return nl < 0 ? source.length : nl + 1;
}

class Collector {
  readonly keys: KeyEntry[] = [];
  readonly headers: HeaderEntry[] = [];

  constructor(private readonly source: string) {}

  table(node: AST.TOMLTopLevelTable | AST.TOMLTable): void {
    let table: TomlPath = [];
    if (node.type === 'TOMLTable') {
      table = [...node.resolvedKey];
      // `[[hooks.X]]` resolves to ["hooks", "X", n]: the index is what zod reports too.
      this.headers.push({ path: table, start: node.range[0], lineEnd: lineEndAfter(this.source, node.key.range[1]) });
    }
    for (const item of node.body) {
      if (item.type === 'TOMLKeyValue') this.keyValue(item, table, table);
      else this.table(item);
    }
  }

  private keyValue(node: AST.TOMLKeyValue, table: TomlPath, prefix: TomlPath): void {
    const value = node.value;
    const entry: KeyEntry = {
      table,
      path: [...prefix, ...keyNames(node.key)],
      start: node.range[0],
      value: { start: value.range[0], end: value.range[1] },
      inlineTable: value.type === 'TOMLInlineTable',
    };
    this.keys.push(entry);
    if (value.type === 'TOMLArray') {
      entry.array = {
        open: value.range[0],
        close: value.range[1] - 1,
        elements: value.elements.map((e) => ({ start: e.range[0], end: e.range[1] })),
      };
    } else if (value.type === 'TOMLInlineTable') {
      for (const inner of value.body) this.keyValue(inner, table, entry.path);
    }
  }
}

/** The outline of TOML text that smol-toml has accepted; text this parser rejects gives an empty outline. */
export function outlineToml(source: string): TomlOutline {
  const collector = new Collector(source);
  try {
    parser ??= require('toml-eslint-parser') as typeof TomlParser;
    const program = parser.parseTOML(source);
    for (const top of program.body) collector.table(top);
  } catch {
    // Both parsers implement TOML 1.0; should they ever disagree, an error
    // message on line 1 beats no error message at all.
  }
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
  return { keys: collector.keys, headers: collector.headers, lineAt };
}

function prefixLength(path: readonly (string | number)[], of: TomlPath): number {
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
  const consider = (of: TomlPath, offset: number, array?: ArraySpan): void => {
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
