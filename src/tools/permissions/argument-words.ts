/** What a command's own arguments make it do (run commands, write files), and the word tests its readers share. */
import type { ShellWord } from './shell-syntax.ts';

/**
 * The effects find, sed and awk can have through their arguments alone,
 * beyond reading files and printing. Allow rules use `runs` and `writes`;
 * deny rules use `commands`, `strings` and `hidden`, and Edit deny rules the
 * files it writes (`writeFiles`, `writeShapes`).
 */
export interface ArgumentEffects {
  /** It runs commands, or may: part of its program could not be read with confidence. */
  runs: boolean;
  /** It writes or deletes files. */
  writes: boolean;
  /** Command lines it runs, as its program spells them out (`sed '1e rm x'`, `awk 'BEGIN{system("rm x")}'`). */
  commands: string[];
  /** Text that may become a command or its input at run time (an awk program's strings, sed's `s///e` replacement); tried by deny rules. */
  strings: string[];
  /** What it runs is only known when it runs, or the program could not be read: deny rules cannot vouch for it. */
  hidden: boolean;
  /**
   * Files it writes or deletes through its arguments, as its program spells
   * them out (`sed -i … .env`, `sed 'w out'`, `awk '{print > "out"}'`,
   * `find … -fprint out`): relative to where it runs, or absolute. Edit deny
   * rules are tried on them.
   */
  writeFiles: string[];
  /**
   * The files it writes that are only known when it runs: the shell words
   * they come from, as written before expansion (`sed -i … *.txt`, `$F`).
   * Null when one of them could be any file at all (a target the program
   * computes: `print > f`). Empty when nothing is written out of sight.
   */
  writeShapes: string[] | null;
}

export function noEffects(): ArgumentEffects {
  return { runs: false, writes: false, commands: [], strings: [], hidden: false, writeFiles: [], writeShapes: [] };
}

/**
 * It writes the file `name`, spelled out in its program (no shell expansion
 * happens there: `w ~/x` is a folder named `~`). The standard streams are
 * printing, not files; a missing name is an error, not a write.
 */
export function writesFile(fx: ArgumentEffects, name: string): void {
  if (name !== '' && !STANDARD_STREAMS.has(name)) fx.writeFiles.push(name);
}

/** It writes the file a shell word names (`sed -i … FILE`): the file is only known when it runs if the shell expands the word (`*`, `$F`, `~`). */
export function writesWord(fx: ArgumentEffects, word: ShellWord): void {
  if (!word.expands && !word.raw.startsWith('~')) writesFile(fx, word.value);
  else fx.writeShapes?.push(word.value);
}

/** It writes a file it computes at run time (`print > f`): which one, nothing on the line says. */
export function writesAnywhere(fx: ArgumentEffects): void {
  fx.writeShapes = null;
}

/** A program this reader cannot follow with confidence: assume it runs anything. */
export function unreadable(fx: ArgumentEffects): void {
  fx.runs = true;
  fx.hidden = true;
}

/** A program file that is the standard input (`awk -f - <<EOF`): its text is not on the line as a word. */
export const STANDARD_INPUT = new Set(['-', '/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

/** Write targets that are not files: writing there is printing. */
export const STANDARD_STREAMS = new Set(['/dev/stdout', '/dev/stderr', '/dev/null', '/dev/fd/1', '/dev/fd/2']);

/**
 * An unquoted `$…`: the shell may split its value into several words
 * (`./$X` with X='a -delete'), and `"$@"` does even inside quotes.
 */
export function maySplit(raw: string): boolean {
  let quote: string | null = null;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] ?? '';
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (c === '\\') i++;
    else if (c === '"') quote = quote === '"' ? null : '"';
    else if (c === "'" && quote === null) quote = "'";
    else if (c === '$' && quote === null && !/['"]/.test(raw[i + 1] ?? '')) return true;
    else if (c === '$' && /^\$\{?@|^\$\{[^}]*\[@\]/.test(raw.slice(i))) return true;
  }
  return false;
}

/**
 * Could this word, once the shell has expanded it, be read as an option
 * (start with `-`)? `*.txt` could: a file named `-i.txt` or `-e1e sh x` would
 * be handed over as one. `src/*.ts`, `"$HOME/x"` and plain words cannot.
 */
export function mayBecomeOption(word: ShellWord): boolean {
  if (!word.expands) return false;
  return maySplit(word.raw) || /^[-*?[{$]/.test(word.value);
}

/**
 * A regular expression for every text an expanding word could become, given
 * one word of the result: `*` and `$…` stand for anything, `?` and `[…]` for
 * one character, `{a,b}` for either. Broader than the shell, never narrower,
 * so a test against it errs towards "could".
 */
export function expansionPattern(value: string): RegExp {
  return new RegExp(`^${patternSource(value)}$`, 's');
}

function patternSource(text: string): string {
  // Nested braces (`{a,{b,c}}`): anything.
  if (/\{[^}]*\{/.test(text)) return '.*';
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const rest = text.slice(i);
    const variable = /^\$(\{[^}]*\}|[A-Za-z_][A-Za-z0-9_]*|.)/.exec(rest);
    const bracket = /^\[[!^]?\]?[^\]]*\]/.exec(rest);
    const brace = /^\{([^{}]*,[^{}]*)\}/.exec(rest);
    const c = text[i] ?? '';
    if (variable !== null || c === '*') {
      out += '.*';
      i += (variable?.[0].length ?? 1) - 1;
    } else if (bracket !== null || c === '?') {
      out += '.';
      i += (bracket?.[0].length ?? 1) - 1;
    } else if (brace !== null) {
      out += `(?:${(brace[1] ?? '').split(',').map(patternSource).join('|')})`;
      i += brace[0].length - 1;
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return out;
}

export function basename(word: string): string {
  const slash = word.lastIndexOf('/');
  return slash < 0 ? word : word.slice(slash + 1);
}
