/**
 * Splits help text into its parts: the name/version line, loose description
 * paragraphs, and headed sections (`Usage:`, `Options:`, …) with their
 * entries. Works on clap, argparse, cobra and docopt layouts: a heading is a
 * line at column 0 ending in `:` (or a known heading with text after it),
 * entries are indented under it, and continuation lines are indented further.
 */

export type SectionKind = 'usage' | 'arguments' | 'options' | 'commands' | 'keywords' | 'permission' | 'other';

export interface Section {
  kind: SectionKind;
  heading: string;
  /** Text after the colon on the heading line (`Usage: calculate …`). */
  inline: string;
  /** The lines under the heading, blank lines included, indentation kept. */
  lines: string[];
}

export interface Entry {
  /** The first line, trimmed. */
  head: string;
  /** Further lines belonging to the entry, trimmed; '' marks a paragraph break. */
  more: string[];
}

export interface HelpLayout {
  firstLine?: { name: string; version: string };
  /** Paragraphs outside any section, in order. */
  paragraphs: string[];
  sections: Section[];
}

const KINDS: [RegExp, SectionKind][] = [
  [/^usage$/i, 'usage'],
  [/^(arguments|args|positional arguments|positionals)$/i, 'arguments'],
  [/^(options|optional arguments|flags|global flags|global options|named arguments)$/i, 'options'],
  [/^(commands|subcommands|available commands|sub-commands)$/i, 'commands'],
  [/^keywords$/i, 'keywords'],
  [/^permission ?level$/i, 'permission'],
];

/** Headings that may carry text after the colon on the same line. */
const INLINE_OK = new Set<SectionKind>(['usage', 'keywords', 'permission']);

export function normalizeHelp(text: string): string {
  return text
    .replace(/^\uFEFF/, '')
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '') // colour codes, when a tool ignores NO_COLOR
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '    ')
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n');
}

function kindOf(heading: string): SectionKind {
  for (const [re, kind] of KINDS) if (re.test(heading.trim())) return kind;
  return 'other';
}

function headingOf(line: string): { heading: string; inline: string; kind: SectionKind } | undefined {
  if (/^\s/.test(line)) return undefined;
  const m = /^([A-Za-z][A-Za-z0-9 _-]{0,40}):(?:\s+(.*))?$/.exec(line);
  if (!m?.[1]) return undefined;
  const kind = kindOf(m[1]);
  const inline = m[2] ?? '';
  if (inline !== '' && !INLINE_OK.has(kind)) return undefined; // "Note: blah" is prose
  return { heading: m[1], inline, kind };
}

const FIRST_LINE = /^([A-Za-z0-9][\w.+-]*(?: [A-Za-z0-9][\w.+-]*)?)\s+v?(\d+\.\d+[\w.+-]*)$/;

export function splitHelp(text: string): HelpLayout {
  const lines = normalizeHelp(text).split('\n');
  const layout: HelpLayout = { paragraphs: [], sections: [] };
  let i = 0;
  while (i < lines.length && lines[i] === '') i++;
  const first = FIRST_LINE.exec(lines[i] ?? '');
  if (first?.[1] && first[2]) {
    layout.firstLine = { name: first[1], version: first[2] };
    i++;
  }
  let para: string[] = [];
  const flush = (): void => {
    if (para.length > 0) layout.paragraphs.push(para.join('\n').trim());
    para = [];
  };
  let current: Section | undefined;
  for (; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const h = headingOf(line);
    // argparse writes "usage: prog …" in lower case at the very top.
    if (h) {
      flush();
      current = { kind: h.kind, heading: h.heading, inline: h.inline, lines: [] };
      layout.sections.push(current);
      continue;
    }
    if (current && (line === '' || /^\s/.test(line))) {
      current.lines.push(line);
      continue;
    }
    // Unindented text after a section ends it: it is description prose again.
    current = undefined;
    if (line === '') flush();
    else para.push(line);
  }
  flush();
  return layout;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** An option entry starts with `-x` or `--xx` (not "- " list items). */
export function isOptionHead(trimmed: string): boolean {
  return /^--?[\p{L}\p{N}?[]/u.test(trimmed);
}

/**
 * Groups a section's lines into entries. For options, an entry starts at an
 * option-looking line indented less than the help column; otherwise at the
 * section's smallest indent. Everything else continues the previous entry.
 */
export function entriesOf(section: Section): Entry[] {
  const nonBlank = section.lines.filter((l) => l.trim() !== '');
  if (nonBlank.length === 0) return [];
  const minIndent = Math.min(...nonBlank.map(indentOf));
  const entries: Entry[] = [];
  let cur: Entry | undefined;
  for (const line of section.lines) {
    const trimmed = line.trim();
    const indent = indentOf(line);
    const starts =
      trimmed !== '' &&
      (section.kind === 'options' ? isOptionHead(trimmed) && indent <= minIndent + 6 : indent === minIndent);
    if (starts) {
      cur = { head: trimmed, more: [] };
      entries.push(cur);
    } else if (cur) {
      cur.more.push(trimmed);
    }
  }
  for (const e of entries) {
    while (e.more.length > 0 && e.more[e.more.length - 1] === '') e.more.pop();
  }
  return entries;
}

/** Term and help of an entry's first line: they are separated by two or more spaces. */
export function splitTerm(head: string): { term: string; help: string } {
  const m = /\s{2,}/.exec(head);
  if (!m) return { term: head, help: '' };
  return { term: head.slice(0, m.index), help: head.slice(m.index + m[0].length) };
}
