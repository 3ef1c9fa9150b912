/** Adds and removes permission rules in a TOML file without disturbing its layout. */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { MoatError, errorMessage } from '../util/index.ts';
import { type ConfigFile, parseConfigText } from './config-file.ts';
import type { KeyEntry, Span, TomlOutline } from '../util/index.ts';

type RuleList = 'allow' | 'deny';

/** A TOML basic string. JSON's escapes are a subset of TOML's. */
function tomlString(s: string): string {
  return JSON.stringify(s);
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset just past the newline ending the line that contains `offset` (or the end of the text). */
function nextLineStart(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl === -1 ? text.length : nl + 1;
}

interface Edit {
  at: number;
  insert: string;
}

/** Adds `"rule"` to an existing array value, in the array's own layout. */
function intoArray(text: string, entry: KeyEntry, rule: string): Edit[] {
  const array = entry.array;
  if (!array) return [];
  const item = tomlString(rule);
  const last = array.elements.at(-1);
  const multiline = text.slice(array.open, array.close).includes('\n');
  if (!multiline) {
    return last ? [{ at: last.end, insert: `, ${item}` }] : [{ at: array.open + 1, insert: item }];
  }
  if (!last) {
    // `allow = [\n]`: the new element goes on its own line after the `[` line.
    const at = nextLineStart(text, array.open);
    return [{ at, insert: `  ${item},\n` }];
  }
  const lastLine = text.slice(lineStartOf(text, last.start), last.start);
  const indent = /^[ \t]*$/.test(lastLine) ? lastLine : '  ';
  const closeOnLastLine = !text.slice(last.end, array.close).includes('\n');
  if (closeOnLastLine) return [{ at: last.end, insert: `,\n${indent}${item}` }];
  // Trailing comma after the last element? Look only at code, not at a comment after it.
  const afterLast = text.slice(last.end, nextLineStart(text, last.end)).split('#')[0] ?? '';
  const edits: Edit[] = afterLast.includes(',') ? [] : [{ at: last.end, insert: ',' }];
  edits.push({ at: nextLineStart(text, last.end), insert: `${indent}${item},\n` });
  return edits;
}

function plan(file: ConfigFile, list: RuleList, rule: string): Edit[] {
  const { source: text, outline } = file;
  const item = tomlString(rule);
  const entry = outline.keys.find((k) => k.path.join('\0') === `permissions\0${list}`);
  if (entry) {
    if (!entry.array) throw unsupported(file, outline, entry.start, `permissions.${list} is not an array`);
    // Works the same for `[permissions]`, dotted keys and `permissions = { allow = [...] }`.
    return intoArray(text, entry, rule);
  }
  const inline = outline.keys.find((k) => k.path.length === 1 && k.path[0] === 'permissions');
  if (inline) throw unsupported(file, outline, inline.start, `permissions is an inline table; add ${item} to ${list} by hand`);

  const header = outline.headers.find((h) => h.path.length === 1 && h.path[0] === 'permissions');
  if (header) {
    // After the table's last key, or right under the header when it has none.
    const lastKey = outline.keys.filter((k) => k.table.length === 1 && k.table[0] === 'permissions').at(-1);
    const at = lastKey ? nextLineStart(text, lastKey.value.end) : header.lineEnd;
    const lead = at === text.length && !text.endsWith('\n') ? '\n' : '';
    return [{ at, insert: `${lead}${list} = [${item}]\n` }];
  }
  const dotted = outline.keys.filter((k) => k.table.length === 0 && k.path[0] === 'permissions').at(-1);
  if (dotted) {
    const at = nextLineStart(text, dotted.value.end);
    const lead = at === text.length && !text.endsWith('\n') ? '\n' : '';
    return [{ at, insert: `${lead}permissions.${list} = [${item}]\n` }];
  }
  const sep = text === '' ? '' : text.endsWith('\n\n') ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  return [{ at: text.length, insert: `${sep}[permissions]\n${list} = [${item}]\n` }];
}

function unsupported(file: ConfigFile, outline: TomlOutline, offset: number, what: string): MoatError {
  return new MoatError('config', `${file.display}:${outline.lineAt(offset)}: ${what}`);
}

function apply(text: string, edits: Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.at - a.at)) out = out.slice(0, e.at) + e.insert + out.slice(e.at);
  return out;
}

/** The file's text and mode; a missing file is empty. */
function readForEdit(file: string, display: string): { text: string; mode: number; exists: boolean } {
  try {
    return { text: readFileSync(file, 'utf8'), mode: statSync(file).mode & 0o777, exists: true };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new MoatError('config', `${display}: cannot read: ${errorMessage(e)}`, { cause: e });
    }
    return { text: '', mode: 0o644, exists: false };
  }
}

/** Replaces the file in one step (write beside it, then rename), so a crash never leaves half a config. */
function writeAtomically(file: string, text: string, mode: number, display: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, text, { mode });
    renameSync(tmp, file);
  } catch (e) {
    throw new MoatError('config', `${display}: cannot write: ${errorMessage(e)}`, { cause: e });
  }
}

/**
 * Appends a permission rule to `permissions.allow` or `.deny` in a config
 * file, creating the file (and its folder, e.g. `.moat/`) if needed. The file
 * is edited as text, so comments and layout survive. Returns false when the
 * rule is already there. The result is parsed and checked before it replaces
 * the file (atomically), so a rule that would not stick is never written.
 */
export function addPermissionRule(file: string, list: RuleList, rawRule: string, display: string = file): boolean {
  // Rules are compared trimmed, as the schema reads them.
  const rule = rawRule.trim();
  if (rule === '') throw new MoatError('usage', 'a permission rule cannot be empty');
  const { text, mode } = readForEdit(file, display);
  // A broken file is reported, not edited: the user should see their mistake first.
  const current = parseConfigText(text, file, display);
  if (current.data.permissions?.[list]?.includes(rule)) return false;

  const next = apply(text, plan(current, list, rule));
  const check = parseConfigText(next, file, display);
  if (!check.data.permissions?.[list]?.includes(rule)) {
    throw new MoatError('internal', `${display}: adding ${tomlString(rule)} to permissions.${list} did not take`);
  }
  writeAtomically(file, next, mode, display);
  return true;
}

/** Where one element of an array sits, as the cut that removes it and its separator. */
function cutElement(text: string, elements: readonly Span[], index: number): { from: number; to: number } {
  const el = elements[index] as Span;
  const next = elements[index + 1];
  const prev = elements[index - 1];
  const lineStart = lineStartOf(text, el.start);
  const lineEnd = nextLineStart(text, el.end);
  // Alone on its line(s), maybe with a comma and a comment: the whole line goes, comment included.
  const before = text.slice(lineStart, el.start);
  const after = text.slice(el.end, lineEnd);
  if (/^[ \t]*$/.test(before) && /^[ \t]*,?[ \t]*(#.*)?\r?\n?$/.test(after)) return { from: lineStart, to: lineEnd };
  // Inline: the element, then the comma and spaces up to the next one (or, for the last, the comma before it).
  if (next && !/[\n#]/.test(text.slice(el.end, next.start))) return { from: el.start, to: next.start };
  if (prev && !/[\n#]/.test(text.slice(prev.end, el.start))) return { from: prev.end, to: el.end };
  const comma = /^[ \t]*,[ \t]*/.exec(text.slice(el.end));
  return { from: el.start, to: el.end + (comma?.[0].length ?? 0) };
}

/**
 * Removes a rule from `permissions.allow` or `.deny`, editing the file as
 * text (comments and layout elsewhere survive; a comment on the rule's own
 * line goes with it). Idempotent: returns false when the rule is not there,
 * or the file does not exist. Every copy of the rule is removed. As with
 * adding, the result is parsed and checked before it replaces the file.
 */
export function removePermissionRule(file: string, list: RuleList, rawRule: string, display: string = file): boolean {
  const rule = rawRule.trim();
  const { text, mode, exists } = readForEdit(file, display);
  if (!exists) return false;
  let current = parseConfigText(text, file, display);
  const before = current.data.permissions?.[list] ?? [];
  if (!before.includes(rule)) return false;
  let next = text;
  // One copy per pass: after each cut the offsets are recomputed from the edited text.
  for (let pass = 0; pass < before.length; pass++) {
    const values = current.data.permissions?.[list] ?? [];
    const index = values.indexOf(rule);
    if (index < 0) break;
    const entry = current.outline.keys.find((k) => k.path.join('\0') === `permissions\0${list}`);
    if (!entry?.array || entry.array.elements.length !== values.length) {
      throw unsupported(current, current.outline, entry?.start ?? 0, `cannot find ${tomlString(rule)} in permissions.${list}; remove it by hand`);
    }
    const cut = cutElement(next, entry.array.elements, index);
    next = next.slice(0, cut.from) + next.slice(cut.to);
    current = parseConfigText(next, file, display);
  }
  const after = current.data.permissions?.[list] ?? [];
  if (after.includes(rule) || JSON.stringify(after) !== JSON.stringify(before.filter((r) => r !== rule))) {
    throw new MoatError('internal', `${display}: removing ${tomlString(rule)} from permissions.${list} did not take`);
  }
  writeAtomically(file, next, mode, display);
  return true;
}
