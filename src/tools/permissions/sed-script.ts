/** What a sed command does besides printing: in-place edits, and its script's `e`, `w` and `W` commands and flags. */
import { mayBecomeOption, noEffects, STANDARD_INPUT, STANDARD_STREAMS, unreadable, writesFile, writesWord, type ArgumentEffects } from './argument-words.ts';
import type { ShellWord } from './shell-syntax.ts';

/**
 * GNU sed runs a shell command with `e COMMAND`, with `e` alone (the pattern
 * space) and with the `e` flag of `s///` (the result of the substitution); it
 * writes files with `w FILE`, `W FILE`, the `w FILE` flag of `s///` and
 * `-i`/`--in-place`. A script file (`-f`) cannot be seen, so it may do any of
 * that.
 *
 * This is not a sed parser. The script is read only as far as needed to tell
 * those commands from the text around them: where each command starts, and
 * where its argument (a regular expression, a replacement, a label, text to
 * insert, a file name) ends. Every such end is taken where GNU sed 4.9 takes
 * it; a character it does not expect makes the whole script count as running
 * a command. Reading a little too much as commands only asks more often.
 * Options are read the way GNU getopt reads them, after operands too.
 */

type Arity = 'none' | 'value' | 'optional';

const LONG_OPTIONS: ReadonlyMap<string, Arity> = new Map([
  ['binary', 'none'], ['debug', 'none'], ['expression', 'value'], ['file', 'value'], ['follow-symlinks', 'none'],
  ['help', 'none'], ['in-place', 'optional'], ['line-length', 'value'], ['null-data', 'none'], ['zero-terminated', 'none'],
  ['posix', 'none'], ['quiet', 'none'], ['silent', 'none'], ['sandbox', 'none'], ['separate', 'none'],
  ['regexp-extended', 'none'], ['unbuffered', 'none'], ['version', 'none'],
]);

/** The short options that take no value; `i` takes an attached suffix, `e`, `f` and `l` a value. */
const SHORT_FLAGS = 'nrEsuzb';

/** `--in` is `--in-place`, as getopt_long accepts any unambiguous abbreviation. */
function longOption(name: string): string | undefined {
  if (LONG_OPTIONS.has(name)) return name;
  const matches = [...LONG_OPTIONS.keys()].filter((o) => o.startsWith(name));
  return name !== '' && matches.length === 1 ? matches[0] : undefined;
}

export function sedEffects(args: readonly ShellWord[]): ArgumentEffects {
  const fx = noEffects();
  const scripts: ShellWord[] = [];
  const operands: ShellWord[] = [];
  let scriptFile = false;
  /** `-i`/`--in-place` given, with its backup suffix (empty for none) or null when the shell expands it. */
  let inPlace: string | null | undefined;
  let options = true;
  const take = (option: string, value: ShellWord | undefined): void => {
    if (option === 'e' || option === 'expression') {
      if (value !== undefined) scripts.push(value);
    } else if (option === 'f' || option === 'file') {
      scriptFile = true;
      if (STANDARD_INPUT.has(value?.value ?? '')) unreadable(fx);
    } else if (option === 'i' || option === 'in-place') {
      fx.writes = true;
      inPlace = value === undefined ? '' : value.expands ? null : value.value;
    }
  };
  for (let i = 0; i < args.length; i++) {
    const word = args[i];
    if (word === undefined) break;
    const w = word.value;
    // `sed -n 1p *.txt` with a file named `-i.txt` or `-e1e sh x` would hand that over as an option.
    if (options && mayBecomeOption(word)) unreadable(fx);
    if (!options || w === '-' || !w.startsWith('-')) {
      operands.push(word);
      continue;
    }
    if (w === '--') {
      options = false;
      continue;
    }
    const attached = (value: string): ShellWord => ({ raw: word.raw, value, expands: word.expands });
    if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      const name = longOption(w.slice(2, eq < 0 ? undefined : eq));
      if (name === undefined) {
        unreadable(fx);
        continue;
      }
      const arity = LONG_OPTIONS.get(name);
      take(name, eq >= 0 ? attached(w.slice(eq + 1)) : arity === 'value' ? args[++i] : undefined);
      continue;
    }
    for (let j = 1; j < w.length; j++) {
      const c = w[j] ?? '';
      if (SHORT_FLAGS.includes(c)) continue;
      if (c === 'i') take('i', j + 1 < w.length ? attached(w.slice(j + 1)) : undefined);
      else if ('efl'.includes(c)) take(c, j + 1 < w.length ? attached(w.slice(j + 1)) : args[++i]);
      else unreadable(fx);
      // `-i`, `-e`, `-f` and `-l` take the rest of the word: `-ie` is -i with the suffix "e".
      break;
    }
  }
  if (scriptFile) fx.runs = true;
  if (scripts.length === 0 && !scriptFile) {
    const first = operands.shift();
    if (first !== undefined) scripts.push(first);
  }
  if (inPlace !== undefined) inPlaceWrites(fx, operands, inPlace);
  if (scripts.some((s) => s.expands)) unreadable(fx);
  // GNU sed joins the pieces of the script with newlines.
  else if (scripts.length > 0 && !new Script(scripts.map((s) => s.value).join('\n'), fx).read()) unreadable(fx);
  return fx;
}

/**
 * `sed -i` rewrites every input file, and with a suffix first keeps a copy
 * of it: `f` + suffix, or, when the suffix has a `*`, the suffix with each
 * `*` replaced by the file as named on the line (`-i 'bak/*'` makes
 * `bak/sub/f` for `sub/f`), as GNU sed 4.9 names it. It refuses to edit the
 * standard streams (`-`, `/dev/stdin`), which are no files.
 */
function inPlaceWrites(fx: ArgumentEffects, operands: readonly ShellWord[], suffix: string | null): void {
  for (const file of operands) {
    if (STANDARD_INPUT.has(file.value) || STANDARD_STREAMS.has(file.value)) continue;
    writesWord(fx, file);
    if (suffix === '') continue;
    // A suffix the shell expands, or a file only known at run time: so is the copy (`-i"$S"` could be `-i/x/*`).
    writesWord(fx, {
      raw: suffix === null ? '$SUFFIX' : file.raw,
      value: suffix === null ? `${file.value}$SUFFIX` : backupName(file.value, suffix),
      expands: suffix === null || file.expands,
    });
  }
}

function backupName(file: string, suffix: string): string {
  return suffix.includes('*') ? suffix.replaceAll('*', file) : file + suffix;
}

/** Commands that take nothing after them. */
const BARE = new Set([...'=dDgGhHnNpPxzF{}']);

/** A cursor over a script, noting in `fx` what its commands run and write. */
class Script {
  private i = 0;

  constructor(
    private readonly text: string,
    private readonly fx: ArgumentEffects,
  ) {}

  /** False where it meets something it does not expect. */
  read(): boolean {
    for (;;) {
      while (/[\s;]/.test(this.peek())) this.i++;
      if (this.i >= this.text.length) return true;
      if (!this.address() || !this.command()) return false;
    }
  }

  private peek(): string {
    return this.text[this.i] ?? '';
  }

  private skip(pattern: RegExp): string {
    const start = this.i;
    while (this.i < this.text.length && pattern.test(this.peek())) this.i++;
    return this.text.slice(start, this.i);
  }

  /** `3`, `$`, `/re/I`, `\,re,`, `0~4`, each optionally `,` and a second one (`+N`, `~N`), then `!`. */
  private address(): boolean {
    if (!this.oneAddress()) return false;
    this.skip(/[ \t]/);
    if (this.peek() === ',') {
      this.i++;
      this.skip(/[ \t]/);
      if (/[+~]/.test(this.peek())) {
        this.i++;
        this.skip(/[0-9]/);
      } else if (!this.oneAddress()) return false;
    }
    this.skip(/[ \t!]/);
    return true;
  }

  private oneAddress(): boolean {
    const c = this.peek();
    if (/[0-9]/.test(c)) {
      this.skip(/[0-9~]/);
      return true;
    }
    if (c === '$') this.i++;
    if (c !== '/' && c !== '\\') return true;
    if (c === '\\') this.i++;
    const delimiter = this.text[this.i++] ?? '';
    if (!this.delimited(delimiter, true)) return false;
    this.skip(/[IM]/);
    return true;
  }

  private command(): boolean {
    const c = this.text[this.i++] ?? '';
    if (BARE.has(c)) return true;
    switch (c) {
      case 's':
        return this.substitute();
      case 'y': {
        const delimiter = this.text[this.i++] ?? '';
        return this.delimited(delimiter, false) && this.delimited(delimiter, false);
      }
      case 'e': {
        const command = this.toEndOfLine().trim();
        this.fx.runs = true;
        // `e` alone runs the pattern space: text only known when it runs.
        if (command === '') this.fx.hidden = true;
        else this.fx.commands.push(command);
        return true;
      }
      case 'w':
      case 'W':
        this.write(this.toEndOfLine().trim());
        return true;
      case 'r':
      case 'R':
      case '#':
        this.toEndOfLine();
        return true;
      case 'a':
      case 'i':
      case 'c':
        this.insertedText();
        return true;
      case ':':
      case 'b':
      case 't':
      case 'T':
      case 'v':
        // A label ends at a blank or `;` (`:a;N;ba`); `}` too, which reads more as commands, never less.
        this.skip(/[ \t]/);
        this.skip(/[^\s;}]/);
        return true;
      case 'q':
      case 'Q':
      case 'l':
      case 'L':
        this.skip(/[ \t]/);
        this.skip(/[0-9]/);
        return true;
      default:
        return false;
    }
  }

  /** `s/re/replacement/flags`: the `e` flag runs the result, `w FILE` writes. */
  private substitute(): boolean {
    const delimiter = this.text[this.i++] ?? '';
    if (!this.delimited(delimiter, true)) return false;
    const start = this.i;
    if (!this.delimited(delimiter, false)) return false;
    const replacement = this.text.slice(start, this.i - 1);
    for (;;) {
      const c = this.peek();
      if (c === '' || /[;\n}#]/.test(c)) return true;
      this.i++;
      if (c === 'e') {
        // The replacement is what runs, with `&` and `\1` filled in from the input: deny rules try it, but cannot vouch.
        this.fx.runs = true;
        this.fx.hidden = true;
        this.fx.strings.push(replacement.replace(/\\(.)/gs, '$1'));
      } else if (c === 'w') {
        this.write(this.toEndOfLine().trim());
        return true;
      } else if (!/[gpiImM0-9 \t]/.test(c)) return false;
    }
  }

  private write(file: string): void {
    if (STANDARD_STREAMS.has(file)) return;
    this.fx.writes = true;
    writesFile(this.fx, file);
  }

  /**
   * Text up to the `delimiter`, after which the cursor stands. A backslash
   * escapes the next character. In a regular expression a bracket expression
   * may hold the delimiter (`s/[/]/x/`), as GNU sed reads it; a sed that ends
   * the expression there instead is left with an unclosed bracket and
   * rejects the script. A newline, unescaped, ends nothing: sed rejects it.
   */
  private delimited(delimiter: string, regex: boolean): boolean {
    if (delimiter === '' || delimiter === '\n' || delimiter === '\\') return false;
    while (this.i < this.text.length) {
      const c = this.text[this.i++] ?? '';
      if (c === delimiter) return true;
      if (c === '\n') return false;
      if (c === '\\') this.i++;
      else if (c === '[' && regex && !this.bracket()) return false;
    }
    return false;
  }

  /** The rest of a bracket expression after `[`: backslashes are plain, `]` first is a member, `[:alpha:]` is one. */
  private bracket(): boolean {
    if (this.peek() === '^') this.i++;
    if (this.peek() === ']') this.i++;
    while (this.i < this.text.length) {
      const c = this.text[this.i++] ?? '';
      if (c === '\n') return false;
      if (c === ']') return true;
      if (c !== '[' || !/[:.=]/.test(this.peek())) continue;
      // `[:alpha:]`, `[.-.]`, `[=e=]`; anything else opened this way is left to sed to refuse.
      const item = /^(?::[a-z]+:|\.[^\n]\.|=[^\n]=)\]/.exec(this.text.slice(this.i));
      if (item === null) return false;
      this.i += item[0].length;
    }
    return false;
  }

  /** Text for `a`, `i` and `c`: to the end of the line, a backslash carrying it over to the next. */
  private insertedText(): void {
    this.skip(/[ \t]/);
    while (this.i < this.text.length) {
      const c = this.text[this.i++] ?? '';
      if (c === '\n') return;
      if (c === '\\') this.i++;
    }
  }

  private toEndOfLine(): string {
    this.skip(/[ \t]/);
    return this.skip(/[^\n]/);
  }
}
