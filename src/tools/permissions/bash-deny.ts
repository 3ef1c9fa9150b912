/** The view of a Bash command that deny (and ask) rules match against. */
import { argumentEffects } from './argument-commands.ts';
import { formatCommand } from './command-pattern.ts';
import { readCommandLine, type ShellWord, type SimpleCommand } from './shell-syntax.ts';

/**
 * Deny rules must hold even against commands written to slip past them, so a
 * deny check looks at every form of every part a human would read as "that
 * command": the whole line; every simple command the parser finds, in `$(…)`,
 * subshells and loops too; the scripts handed to a shell (`sh -c '…'`,
 * `bash -c -- '…'`, `eval …`, here-documents and here-strings fed to
 * `bash`/`sh`/`busybox sh`, `echo '…' | sh`); `find -exec …`; the commands a
 * sed or awk program spells out (`sed '1e rm x'`, `awk 'BEGIN{system("rm
 * x")}'`, read in argument-commands.ts); the commands that `git -c
 * core.pager=…`-style configuration would run; and each command
 * with the wrappers that merely run another one (`sudo`, `env`, `timeout`,
 * `xargs`, `busybox`, …) taken off. This over-approximates on purpose: a
 * deny rule that fires on `command -v rm` is an annoyance; one that misses
 * `sudo rm` is a hole.
 *
 * What cannot be read is "opaque": a command name known only at run time
 * (`$X`), code handed to an interpreter (`python3 -c …`, `node -e …`), a
 * script a shell reads from a pipe it cannot see (`curl … | sh`), a command
 * a sed or awk program builds at run time (`s/…/…/e`, `system(x)`) or a
 * program argument-commands.ts cannot read with confidence. Deny rules cannot
 * vouch that such a line is not theirs; decide.ts then asks instead of
 * allowing it under a bare `Bash` rule. Quoted strings in interpreter code are
 * still read as commands (`os.system("rm -rf x")`), and so are the strings of
 * such a sed or awk program. A program in a file (`awk -f x.awk`) is read as
 * written, as `bash x.sh` is.
 */

const MAX_DEPTH = 6;
/** Forms tried per simple command, across all its unwrappings. */
const MAX_UNWRAPS = 48;

/** Shell keywords that may precede a command when error recovery leaves them as words. */
const KEYWORDS = new Set(['!', 'if', 'then', 'else', 'elif', 'do', 'while', 'until', '{', '}', 'coproc']);

/** Wrappers that run the rest of their arguments as a command, with the options that take a value. */
const WRAPPERS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['sudo', new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U', '-T', '--user', '--group', '--chdir'])],
  ['doas', new Set(['-u', '-C'])],
  ['env', new Set(['-u', '-C', '--unset', '--chdir'])],
  ['command', new Set()],
  ['builtin', new Set()],
  ['exec', new Set(['-a'])],
  ['nohup', new Set()],
  ['setsid', new Set()],
  ['nice', new Set(['-n', '--adjustment'])],
  ['ionice', new Set(['-c', '-n', '--class', '--classdata'])],
  ['timeout', new Set(['-s', '-k', '--signal', '--kill-after'])],
  ['stdbuf', new Set(['-i', '-o', '-e'])],
  ['xargs', new Set(['-I', '-n', '-P', '-L', '-d', '-E', '-s', '-a', '--max-args', '--max-procs', '--delimiter'])],
  ['watch', new Set(['-n', '--interval'])],
  ['time', new Set(['-f', '-o'])],
  // Multi-call binaries: `busybox rm x` is `rm x`.
  ['busybox', new Set()],
  ['toybox', new Set()],
]);

/**
 * Wrappers with operands of their own before the command (`chroot DIR cmd`,
 * `flock FILE cmd`, `taskset MASK cmd`): every tail of their arguments is
 * tried as the command, rather than modelling each one's options.
 */
const TAIL_WRAPPERS = new Set([
  'chroot', 'flock', 'taskset', 'chrt', 'faketime', 'unshare', 'nsenter', 'setpriv', 'firejail', 'proot', 'fakeroot',
  'strace', 'ltrace', 'valgrind', 'systemd-run', 'runuser', 'su', 'sg', 'pkexec', 'script', 'dbus-run-session',
  'xvfb-run', 'torsocks', 'proxychains', 'proxychains4', 'catchsegv', 'unbuffer', 'parallel', 'caffeinate', 'coreutils',
]);

/** Wrappers whose `-c` (or `--command`) value is a shell script: `su -c '…'`, `flock -c '…'`, `script -c '…'`. */
const SCRIPT_OPTION_WRAPPERS = new Set(['su', 'runuser', 'sg', 'flock', 'script']);

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'rbash']);

/** Interpreters, with the options whose value is code to run. Without one and without a script file they read code from stdin. */
const INTERPRETERS: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ...['python', 'python2', 'python3', 'pypy', 'pypy3'].map((n) => [n, new Set(['-c'])] as const),
  ...['node', 'nodejs', 'bun'].map((n) => [n, new Set(['-e', '--eval', '-p', '--print'])] as const),
  ['deno', new Set(['eval'])],
  ...['perl', 'ruby'].map((n) => [n, new Set(['-e', '-E'])] as const),
  ['php', new Set(['-r'])],
  ...['lua', 'osascript', 'Rscript'].map((n) => [n, new Set(['-e'])] as const),
]);

/** Variables whose value a program runs as a command (`GIT_PAGER='…' git log`). */
const RUNS_VARIABLE = /^(GIT_PAGER|PAGER|MANPAGER|GIT_EDITOR|EDITOR|VISUAL|GIT_SEQUENCE_EDITOR|GIT_SSH_COMMAND|GIT_SSH|GIT_EXTERNAL_DIFF|GIT_ASKPASS|SSH_ASKPASS|LESSOPEN|LESSCLOSE|BROWSER|PROMPT_COMMAND|BASH_ENV|ENV)\+?=/;

/** Programs whose whole output a shell reading the pipe would run, when it is written on the line. */
const ECHOES = new Set(['echo', 'printf']);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

function basename(word: string): string {
  const slash = word.lastIndexOf('/');
  return slash < 0 ? word : word.slice(slash + 1);
}

function skipOptions(words: readonly ShellWord[], name: string, withValue: ReadonlySet<string>): number {
  let i = 1;
  while (i < words.length) {
    const w = words[i]?.value ?? '';
    if (w === '--') return i + 1;
    if (w.startsWith('-') && w.length > 1) {
      i += withValue.has(w) ? 2 : 1;
      continue;
    }
    if ((name === 'env' || name === 'sudo') && ASSIGNMENT.test(w)) {
      i++;
      continue;
    }
    // nice -5 / timeout 10 / watch 2: a bare number or duration before the command.
    if ((name === 'timeout' || name === 'nice') && /^[+-]?\d+(\.\d+)?[smhd]?$/.test(w)) {
      i++;
      continue;
    }
    break;
  }
  return i;
}

/** The word lists a wrapper or keyword runs (none when the first word is neither). */
function unwrap(words: readonly ShellWord[]): ShellWord[][] {
  const first = words[0];
  if (!first) return [];
  if (KEYWORDS.has(first.value)) return [words.slice(1)];
  const name = basename(first.value);
  const withValue = WRAPPERS.get(name);
  if (withValue) return [words.slice(skipOptions(words, name, withValue))];
  if (TAIL_WRAPPERS.has(name)) return words.slice(1).map((_, i) => words.slice(i + 1));
  return [];
}

function wordsText(words: readonly ShellWord[], key: 'raw' | 'value'): string {
  return words.map((w) => w[key]).join(' ');
}

/** What the commands of a line write through their own arguments (argument-commands.ts), for Edit deny rules. */
export interface ArgumentWrites {
  /** Files as their programs name them, relative to where the line runs or absolute. */
  files: string[];
  /** Files only known when the commands run: the shell words they come from (`sed -i … *.txt`, `$F`); null when one could be any file (`awk '{print > f}'`); empty when there are none. */
  shapes: string[] | null;
}

interface Collected {
  forms: Set<string>;
  /** Some command's name or code is only known at run time, so no deny rule can be checked on it. */
  opaque: boolean;
  /** The line and every script found in it (for redirection targets). */
  scripts: string[];
  writes: ArgumentWrites;
}

/** Every form of one simple command that a deny rule is tested against. */
function commandForms(cmd: SimpleCommand, depth: number, acc: Collected): void {
  const out = acc.forms;
  out.add(formatCommand(cmd, { assignments: true, redirections: false }));
  out.add(formatCommand(cmd, { assignments: true, redirections: true }));
  for (const a of cmd.assignments) {
    if (RUNS_VARIABLE.test(a.value)) collectDenyForms(a.value.slice(a.value.indexOf('=') + 1), depth + 1, acc);
  }
  const queue: ShellWord[][] = [cmd.words];
  const seen = new Set<string>();
  while (queue.length > 0 && seen.size < MAX_UNWRAPS) {
    const words = queue.shift() ?? [];
    const key = wordsText(words, 'value');
    if (words.length === 0 || seen.has(key)) continue;
    seen.add(key);
    out.add(wordsText(words, 'raw'));
    out.add(key);
    const first = words[0];
    if (first?.expands) acc.opaque = true;
    if (first && first.value.includes('/')) {
      // `/bin/rm -rf x` is `rm -rf x`.
      out.add([basename(first.value), ...words.slice(1).map((w) => w.value)].join(' '));
    }
    nestedForms(words, cmd, depth, acc);
    queue.push(...unwrap(words));
  }
}

/** What a shell invocation runs: its `-c` scripts, or whether it reads its script from stdin. */
function shellScripts(words: readonly ShellWord[]): { scripts: ShellWord[]; readsStdin: boolean } {
  let command = false;
  let stdin = false;
  let options = true;
  const operands: ShellWord[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    const w = word?.value ?? '';
    if (word === undefined) continue;
    if (!options) operands.push(word);
    else if (w === '--' || w === '-') options = false;
    else if (/^[-+][oO]$/.test(w) || w === '--rcfile' || w === '--init-file') i++;
    else if (w.startsWith('--')) continue;
    else if (/^[-+][A-Za-z]+$/.test(w)) {
      // Options may be grouped (`-ec`), and `-c` may come before other options (`bash -c -x '…'`).
      if (w.startsWith('-') && w.includes('c')) command = true;
      if (w.startsWith('-') && w.includes('s')) stdin = true;
    } else {
      options = false;
      operands.push(word);
    }
  }
  // With -c, the first operand is the script and the rest its $0 and arguments; reading them all costs nothing.
  if (command) return { scripts: operands, readsStdin: false };
  return { scripts: [], readsStdin: stdin || operands.length === 0 };
}

/** Text fed to a program's stdin, and whether part of it is only known at run time. */
interface Fed {
  texts: string[];
  hidden: boolean;
}

/** Here-documents and here-strings given to a command; an unquoted here-document with `$…` is partly hidden. */
function stdinTexts(cmd: SimpleCommand): Fed {
  const fed: Fed = { texts: [], hidden: false };
  for (const r of cmd.redirections) {
    if (r.input === undefined) continue;
    fed.texts.push(r.input);
    const quoted = r.op !== '<<<' && /['"\\]/.test(r.target?.raw ?? '');
    if (r.op === '<<<' ? r.target?.expands === true : !quoted && /[$`]/.test(r.input)) fed.hidden = true;
  }
  return fed;
}

/**
 * What reaches the standard input of a command that runs it as code: the
 * here-documents on the line and, through a pipe, what an `echo`/`printf`
 * (or a `cat` of a here-document) writes. `hidden` when some of it cannot be
 * seen (`curl … | sh`, `echo "$X" | sh`).
 */
function stdinScripts(cmd: SimpleCommand): Fed {
  const own = stdinTexts(cmd);
  if (own.texts.length > 0 || !cmd.piped) return own;
  const from = cmd.pipedFrom;
  if (from === null) return { texts: [], hidden: true };
  const name = basename(from.words[0]?.value ?? '');
  const args = from.words.slice(1);
  if (ECHOES.has(name)) {
    const printed = args.filter((a) => !/^-[neE]+$/.test(a.value)).map((a) => a.value);
    // printf's escapes, roughly: a script written as 'rm x\n' is still read as `rm x`.
    const texts = [printed.join(' '), ...printed].map((a) => a.replace(/\\n/g, '\n'));
    return { texts, hidden: args.some((a) => a.expands) };
  }
  const fed = stdinTexts(from);
  if (name === 'cat' && args.length === 0 && fed.texts.length > 0) return fed;
  return { texts: fed.texts, hidden: true };
}

/** Quoted strings in a piece of code: `os.system("rm -rf x")` gives `rm -rf x`. */
function quotedStrings(code: string): string[] {
  return [...code.matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`((?:[^`\\]|\\.)*)`/gs)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

/**
 * Code an interpreter is given on the line (`-c '…'`, `-e '…'`) or on stdin
 * when it is given no script file (a here-document, `echo … | python3`).
 * Null when it runs a file or nothing at all.
 */
function interpreterCode(words: readonly ShellWord[], cmd: SimpleCommand, flags: ReadonlySet<string>): string[] | null {
  const code: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const w = words[i]?.value ?? '';
    // `perl -ne '…'`: the code follows a group of options that ends in e.
    const grouped = /^-[A-Za-z]{2,}$/.test(w) && [...flags].some((f) => /^-[A-Za-z]$/.test(f) && w.endsWith(f.slice(1)));
    if (flags.has(w) || grouped) code.push(words[++i]?.value ?? '');
    else if (/^--(eval|print)=/.test(w)) code.push(w.slice(w.indexOf('=') + 1));
    else if (w === '-') break;
    else if (!w.startsWith('-')) return code.length > 0 ? code : null;
  }
  if (code.length > 0) return code;
  const fed = stdinScripts(cmd);
  return fed.hidden || fed.texts.length > 0 ? fed.texts : null;
}

/** Commands that a command runs from its own arguments or input. */
function nestedForms(words: ShellWord[], cmd: SimpleCommand, depth: number, acc: Collected): void {
  const name = basename(words[0]?.value ?? '');
  const nested = (script: string): void => collectDenyForms(script, depth + 1, acc);
  /** A script made of words: read it, and if a word is only known at run time, so is the script. */
  const nestedWords = (from: readonly ShellWord[], script = from.map((w) => w.value).join(' ')): void => {
    if (from.some((w) => w.expands)) acc.opaque = true;
    nested(script);
  };
  if (SHELLS.has(name)) {
    const { scripts, readsStdin } = shellScripts(words);
    for (const script of scripts) nestedWords([script]);
    if (readsStdin) {
      const fed = stdinScripts(cmd);
      acc.opaque ||= fed.hidden;
      fed.texts.forEach(nested);
    }
  }
  const flags = INTERPRETERS.get(name);
  const code = flags === undefined ? null : interpreterCode(words, cmd, flags);
  if (code !== null) {
    // Code deny rules cannot read; only the strings in it are tried as commands.
    acc.opaque = true;
    for (const text of code) quotedStrings(text).forEach(nested);
  }
  if (name === 'eval' || name === 'source' || name === '.') nestedWords(words.slice(1));
  if (name === 'env') {
    const s = words.findIndex((w) => w.value === '-S' || w.value === '--split-string');
    const script = s > 0 ? words[s + 1] : undefined;
    if (script) nestedWords([script]);
  }
  if (name === 'watch') nestedWords(words.slice(skipOptions(words, name, WRAPPERS.get('watch') ?? new Set())));
  for (let i = 1; i < words.length - 1; i++) {
    const option = words[i]?.value ?? '';
    const value = words[i + 1];
    if (value === undefined) break;
    if (SCRIPT_OPTION_WRAPPERS.has(name) && (option === '-c' || option === '--command')) nestedWords([value]);
    // `git -c core.pager='…' log`, `-c alias.x='!…'`: a configured command runs through the shell.
    if (name === 'git' && option === '-c') nestedWords([value], value.value.replace(/^[^=]*=!?/, ''));
    if (name === 'git' && !option.startsWith('-') && words[i - 1]?.value !== '-c' && words[i - 1]?.value !== '-C') break;
  }
  const effects = argumentEffects(words);
  if (effects !== null) {
    acc.opaque ||= effects.hidden;
    acc.writes.files.push(...effects.writeFiles);
    acc.writes.shapes = acc.writes.shapes === null || effects.writeShapes === null ? null : [...acc.writes.shapes, ...effects.writeShapes];
    // What awk or sed runs inherits their standard input, which nobody here can see (`system("sh")`).
    for (const command of effects.commands) collectDenyForms(command, depth + 1, acc, true);
    effects.strings.forEach(nested);
  }
  if (name === 'find') {
    for (let i = 1; i < words.length; i++) {
      if (!['-exec', '-execdir', '-ok', '-okdir'].includes(words[i]?.value ?? '')) continue;
      const end = words.findIndex((w, j) => j > i && (w.value === ';' || w.value === '+'));
      const inner = words.slice(i + 1, end < 0 ? words.length : end);
      if (inner.length > 0) commandForms({ assignments: [], words: inner, redirections: [], piped: false, pipedFrom: null }, depth + 1, acc);
    }
  }
}

/** `stdinHidden`: the line's commands read an input nobody can see, as if from `curl … |`. */
function collectDenyForms(line: string, depth: number, acc: Collected, stdinHidden = false): void {
  const whole = line.trim();
  if (whole.length === 0) return;
  acc.forms.add(whole);
  if (depth > MAX_DEPTH) {
    // Nested deeper than anyone writes by hand: what is further in is not read.
    acc.opaque = true;
    return;
  }
  acc.scripts.push(line);
  const parsed = readCommandLine(line);
  for (const cmd of parsed.commands) commandForms(stdinHidden && !cmd.piped ? { ...cmd, piped: true, pipedFrom: null } : cmd, depth, acc);
  for (const text of parsed.skipped) collectDenyForms(text, depth + 1, acc);
  // After a syntax error the parser's reading may not be bash's; read it again with the quotes dropped.
  if (parsed.syntaxError && /["'`]/.test(line)) collectDenyForms(line.replace(/["'`]/g, ' '), depth + 1, acc);
}

export interface DenyView {
  /** All the texts a Bash deny rule is tested against for this command line. */
  forms: string[];
  /** True when some command or code is only known at run time: deny rules cannot vouch that it is not theirs. */
  opaque: boolean;
  /** The line and the scripts it hands to shells, each to be read for redirection targets. */
  scripts: string[];
  /** Files its commands (`sed -i`, `awk '{print > "f"}'`, `find -fprint`, in those scripts too) write through their arguments. */
  argumentWrites: ArgumentWrites;
}

/** The last line analysed: every deny rule of a policy asks about the same command in turn. */
let cache: { line: string; view: DenyView } | null = null;

export function denyView(line: string): DenyView {
  if (cache?.line === line) return cache.view;
  const acc: Collected = { forms: new Set(), opaque: false, scripts: [], writes: { files: [], shapes: [] } };
  collectDenyForms(line, 0, acc);
  cache = { line, view: { forms: [...acc.forms], opaque: acc.opaque, scripts: acc.scripts, argumentWrites: acc.writes } };
  return cache.view;
}
