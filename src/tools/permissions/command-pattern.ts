/** The command patterns inside `Bash(…)` rules, as parsed (matching them is command-pattern-match.ts). */
import { escapeRegExp } from '../../util/index.ts';
import type { SimpleCommand } from './shell-syntax.ts';

/**
 * What goes inside `Bash(…)`. Claude Code's forms, all kept:
 * - `Bash(git status)`: exactly that command;
 * - `Bash(npm test:*)`: `npm test`, or `npm test` followed by a space and anything
 *   (a word boundary: `npm testing` does not match);
 * - `Bash(npm run *)`: `*` stands for any text; a single trailing ` *` is
 *   optional, so it is the same as `npm run:*`; `\*` is a literal star;
 * - `Bash(*)`: every command (the same as a bare `Bash`).
 */
export type CommandPattern =
  | { type: 'any' }
  | {
      type: 'exact';
      /** The whole text with whitespace runs collapsed, compared with a whole command line. */
      line: string;
    }
  | { type: 'wildcard'; regex: RegExp };

/** Collapse runs of whitespace outside quotes to one space and trim. */
export function normalizeSpaces(text: string): string {
  let out = '';
  let quote: string | null = null;
  let pendingSpace = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (quote === null && /\s/.test(c)) {
      pendingSpace = out.length > 0;
      continue;
    }
    if (pendingSpace) {
      out += ' ';
      pendingSpace = false;
    }
    out += c;
    if (c === '\\' && quote !== "'") {
      out += text[i + 1] ?? '';
      i++;
    } else if (quote === null && (c === '"' || c === "'")) quote = c;
    else if (c === quote) quote = null;
  }
  return out;
}

/** Canonical text of a simple command: assignments, words, then redirections as `fd op target` without spaces. */
export function formatCommand(
  cmd: SimpleCommand,
  parts: { assignments: boolean; redirections: boolean },
): string {
  const words = [...(parts.assignments ? cmd.assignments : []), ...cmd.words].map((w) => w.raw);
  if (parts.redirections) {
    for (const r of cmd.redirections) words.push(`${r.fd ?? ''}${r.op}${r.target?.raw ?? ''}`);
  }
  return words.join(' ');
}

/** Split on unescaped `*`; `\*` and `\\` become literal text. */
function splitStars(spec: string): string[] {
  const pieces: string[] = [''];
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i] ?? '';
    const next = spec[i + 1];
    if (c === '\\' && (next === '*' || next === '\\')) {
      pieces[pieces.length - 1] += next;
      i++;
    } else if (c === '*') pieces.push('');
    else pieces[pieces.length - 1] += c;
  }
  return pieces;
}

/** A command that is the prefix or the prefix followed by a space and anything. */
function prefixRegex(prefix: string): RegExp {
  return new RegExp(`^${escapeRegExp(prefix)}(?: .*)?$`, 's');
}

export function parseCommandPattern(spec: string): CommandPattern {
  const text = normalizeSpaces(spec);
  if (text === '*' || text === ':*') return { type: 'any' };
  // Legacy `prefix:*` form.
  if (text.endsWith(':*') && !text.endsWith('\\:*')) {
    const prefix = normalizeSpaces(text.slice(0, -2));
    const pieces = splitStars(prefix);
    if (pieces.length === 1) return { type: 'wildcard', regex: prefixRegex(pieces[0] ?? '') };
    return { type: 'wildcard', regex: new RegExp(`^${pieces.map(escapeRegExp).join('.*')}(?: .*)?$`, 's') };
  }
  const pieces = splitStars(text);
  if (pieces.length === 1) return { type: 'exact', line: normalizeSpaces(pieces[0] ?? '') };
  // `ls *`: one trailing wildcard after a space is optional, so `ls` matches and `lsof` does not.
  if (pieces.length === 2 && (pieces[0] ?? '').endsWith(' ') && pieces[1] === '') {
    return { type: 'wildcard', regex: prefixRegex((pieces[0] ?? '').slice(0, -1)) };
  }
  return { type: 'wildcard', regex: new RegExp(`^${pieces.map(escapeRegExp).join('.*')}$`, 's') };
}
