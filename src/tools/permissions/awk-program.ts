/** What an awk program does besides printing: `system()`, pipes to and from commands, output to files. */
import { noEffects, STANDARD_INPUT, STANDARD_STREAMS, unreadable, writesAnywhere, writesFile, type ArgumentEffects } from './argument-words.ts';
import type { ShellWord } from './shell-syntax.ts';

/**
 * awk (gawk, mawk, nawk, busybox awk) runs shell commands with `system(…)`,
 * `print … | "cmd"`, `"cmd" | getline` and gawk's `|&`, and writes files with
 * `print … > "file"` and `>>`. gawk can also load code (`@load`, `@include`,
 * `-l`, `-i`) and reach the network (`"/inet/…"`). A program file (`-f`)
 * cannot be seen, so it may do any of that.
 *
 * This is not an awk parser. The program is cut into tokens (strings,
 * regular expressions, names, operators) and these are looked for among them.
 * Where the tokens cannot be cut with confidence (a `/` inside a bracket
 * expression, which awks end differently; an unclosed string; `@`), the
 * program counts as running a command. A `>` is an output redirection only
 * after `print`/`printf` outside parentheses, as in awk's grammar; elsewhere
 * it compares (`$3 > 100`). A `|` always runs a command (`||` is another
 * token).
 */

/** Options that change nothing of what the program may do. Any other option counts as running a command. */
const PLAIN_FLAGS = 'bcPrMNnOstSVh';
const PLAIN_LONG = new Set([
  'posix', 'traditional', 'characters-as-bytes', 'bignum', 'sandbox', 're-interval', 'use-lc-numeric', 'non-decimal-data',
  'optimize', 'no-optimize', 'lint', 'version', 'help', 'copyright',
]);

export function awkEffects(args: readonly ShellWord[]): ArgumentEffects {
  const fx = noEffects();
  const programs: ShellWord[] = [];
  let programFile = false;
  let i = 0;
  const take = (option: string, value: ShellWord | undefined): void => {
    if (option === 'f' || option === 'file') {
      programFile = true;
      if (STANDARD_INPUT.has(value?.value ?? '')) unreadable(fx);
    } else if ((option === 'e' || option === 'source') && value !== undefined) programs.push(value);
  };
  // Options come before the program; what follows it are input files and `var=value` assignments.
  for (; i < args.length; i++) {
    const word = args[i];
    if (word === undefined) break;
    const w = word.value;
    if (w === '--') {
      i++;
      break;
    }
    if (!w.startsWith('-') || w === '-' || word.expands) break;
    const attached = (value: string): ShellWord => ({ raw: word.raw, value, expands: word.expands });
    if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      const name = w.slice(2, eq < 0 ? undefined : eq);
      if (['file', 'source', 'assign', 'field-separator'].includes(name)) take(name, eq >= 0 ? attached(w.slice(eq + 1)) : args[++i]);
      else if (!PLAIN_LONG.has(name)) unreadable(fx);
      continue;
    }
    for (let j = 1; j < w.length; j++) {
      const c = w[j] ?? '';
      if (PLAIN_FLAGS.includes(c)) continue;
      if ('Fvfe'.includes(c)) take(c, j + 1 < w.length ? attached(w.slice(j + 1)) : args[++i]);
      else unreadable(fx);
      break;
    }
  }
  if (programFile) fx.runs = true;
  const positional = args[i];
  if (programs.length === 0 && !programFile && positional !== undefined) programs.push(positional);
  if (programs.some((p) => p.expands)) unreadable(fx);
  else for (const p of programs) readProgram(p.value, fx);
  return fx;
}

interface Token {
  kind: 'string' | 'regex' | 'name' | 'number' | 'op' | 'newline';
  text: string;
  /** A `)` that closes the condition of `if`, `while` or `for`: a statement, so a regular expression, may follow. */
  closesCondition?: boolean;
}

const is = (t: Token | undefined, kind: Token['kind'], ...texts: string[]): boolean =>
  t !== undefined && t.kind === kind && (texts.length === 0 || texts.includes(t.text));

/** Where a piped command or a redirection target ends: the statement does. */
const endsStatement = (t: Token | undefined): boolean => t === undefined || t.kind === 'newline' || is(t, 'op', ';', '}');

/** Before `"cmd" | getline`: a place where an expression starts, so the string is the whole command (not `x "cmd"`). */
const startsExpression = (t: Token | undefined): boolean => t === undefined || t.kind === 'newline' || is(t, 'op', '{', '}', ';', '(');

const OPERATORS = ['||', '&&', '|&', '>>', '>=', '<=', '==', '!=', '!~', '++', '--', '+=', '-=', '*=', '/=', '%=', '^=', '**'];

/**
 * After these a `/` starts a regular expression; after an operand (a name,
 * number, string, `)`, `]`) it divides. `if (x) /re/` is the exception: there
 * the `)` ends a condition and a statement starts.
 */
function regexMayFollow(previous: Token | undefined): boolean {
  if (previous === undefined || previous.kind === 'newline' || previous.closesCondition === true) return true;
  if (previous.kind === 'op') return ![')', ']', '$', '++', '--'].includes(previous.text);
  return previous.kind === 'name' && ['print', 'printf', 'return', 'case', 'do', 'else'].includes(previous.text);
}

/** The program's tokens, or null where they cannot be cut with confidence. */
function tokenize(program: string): Token[] | null {
  const tokens: Token[] = [];
  /** For each open `(`: does it hold the condition of `if`, `while` or `for`? */
  const parens: boolean[] = [];
  let i = 0;
  /** A string or regular expression from `i` (just past its opening character) to its unescaped `end`. */
  const quoted = (end: string): string | null => {
    const start = i;
    let bracket = false;
    while (i < program.length) {
      const c = program[i++] ?? '';
      if (c === '\n') return null;
      if (c === '\\') i++;
      else if (end === '/' && c === '[' && !bracket) {
        bracket = true;
        if (program[i] === '^') i++;
        if (program[i] === ']') i++;
      } else if (bracket && c === '[' && /[:.=]/.test(program[i] ?? '')) {
        // `[:alpha:]` inside a bracket expression; anything else opened this way is left unread.
        const item = /^(?::[a-z]+:|\.[^\n]\.|=[^\n]=)\]/.exec(program.slice(i));
        if (item === null) return null;
        i += item[0].length;
      } else if (bracket && c === ']') bracket = false;
      // gawk reads `/[/]/` as one expression, other awks end it at the second `/`: too ambiguous to follow.
      else if (bracket && c === '/') return null;
      else if (c === end && !bracket) return program.slice(start, i - 1);
    }
    return null;
  };
  while (i < program.length) {
    const c = program[i] ?? '';
    if (c === ' ' || c === '\t' || c === '\r') i++;
    else if (c === '\\' && /^\\\r?\n/.test(program.slice(i))) i += program[i + 1] === '\r' ? 3 : 2;
    else if (c === '\n') {
      tokens.push({ kind: 'newline', text: c });
      i++;
    } else if (c === '#') {
      while (i < program.length && program[i] !== '\n') i++;
    } else if (c === '"' || (c === '/' && regexMayFollow(tokens.at(-1)))) {
      i++;
      const text = quoted(c);
      if (text === null) return null;
      tokens.push({ kind: c === '"' ? 'string' : 'regex', text });
    } else if (/[A-Za-z_]/.test(c)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(program.slice(i))?.[0] ?? c;
      tokens.push({ kind: 'name', text: name });
      i += name.length;
    } else if (/[0-9.]/.test(c)) {
      const number = /^[0-9A-Za-z_.]+/.exec(program.slice(i))?.[0] ?? c;
      tokens.push({ kind: 'number', text: number });
      i += number.length;
    } else if (c === '@') {
      // gawk's @load and @include bring in code this cannot see; @f() calls any function, system() included.
      return null;
    } else {
      const op = OPERATORS.find((o) => program.startsWith(o, i)) ?? c;
      if (op === '(') parens.push(is(tokens.at(-1), 'name', 'if', 'while', 'for'));
      tokens.push({ kind: 'op', text: op, ...(op === ')' && parens.pop() === true ? { closesCondition: true } : {}) });
      i += op.length;
    }
  }
  return tokens;
}

/** awk's escapes in a string: `"\162m"` is `rm` to the shell that runs it. */
function decodeString(text: string): string {
  const simple: Readonly<Record<string, string>> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', f: '\f', v: '\v' };
  return text.replace(/\\([0-7]{1,3}|x[0-9a-fA-F]{1,2}|.)/gs, (_, esc: string) => {
    if (/^[0-7]/.test(esc)) return String.fromCharCode(Number.parseInt(esc, 8) & 0xff);
    if (esc.startsWith('x') && esc.length > 1) return String.fromCharCode(Number.parseInt(esc.slice(1), 16));
    return simple[esc] ?? esc;
  });
}

function readProgram(program: string, fx: ArgumentEffects): void {
  const tokens = tokenize(program);
  if (tokens === null) {
    unreadable(fx);
    return;
  }
  /** A command the program runs: known when it is one literal string, else only known when it runs. */
  const runs = (literal: Token | undefined): void => {
    fx.runs = true;
    if (literal === undefined) fx.hidden = true;
    else fx.commands.push(decodeString(literal.text));
  };
  tokens.forEach((t, k) => {
    const next = tokens[k + 1];
    if (is(t, 'name', 'system')) {
      runs(is(next, 'op', '(') && is(tokens[k + 2], 'string') && is(tokens[k + 3], 'op', ')') ? tokens[k + 2] : undefined);
    } else if (is(t, 'op', '|', '|&')) {
      const before = tokens[k - 1];
      if (is(next, 'name', 'getline')) runs(is(before, 'string') && startsExpression(tokens[k - 2]) ? before : undefined);
      else runs(is(next, 'string') && endsStatement(tokens[k + 2]) ? next : undefined);
    } else if (is(t, 'name', 'print', 'printf')) {
      const target = outputTarget(tokens, k);
      if (target === null) return;
      // `> "out"` names its file; `> f`, `> "out" n`, `> ("o" x)` compute it when they run.
      const literal = target.token?.kind === 'string' && endsStatement(tokens[target.index + 1]) ? target.token.text : null;
      if (literal === null || !STANDARD_STREAMS.has(literal)) fx.writes = true;
      if (literal === null) writesAnywhere(fx);
      else writesFile(fx, decodeString(literal));
    } else if (is(t, 'string') && t.text.startsWith('/inet')) {
      // gawk's network files: not a command, but a connection that no rule for awk was written to approve.
      fx.runs = true;
    }
  });
  // As with interpreter code, any string may become a command or a command's input (`print "rm x" | "sh"`).
  if (fx.runs) fx.strings.push(...tokens.filter((t) => t.kind === 'string').map((t) => decodeString(t.text)));
}

/** Where the `print` at `k` sends its output with `>` or `>>`: the first token of the target and its index; null when it prints. */
function outputTarget(tokens: readonly Token[], k: number): { token: Token | undefined; index: number } | null {
  let depth = 0;
  for (let j = k + 1; j < tokens.length; j++) {
    const t = tokens[j];
    if (t === undefined) break;
    if (is(t, 'op', '(', '[')) depth++;
    else if (is(t, 'op', ')', ']')) depth--;
    if (depth < 0 || is(t, 'op', ';', '}', '{', '|', '|&')) return null;
    // A line ends the statement unless it is continued after a comma, `&&` or `||`.
    if (t.kind === 'newline' && !is(tokens[j - 1], 'op', ',', '&&', '||')) return null;
    if (depth === 0 && is(t, 'op', '>', '>>')) return { token: tokens[j + 1], index: j + 1 };
  }
  return null;
}
