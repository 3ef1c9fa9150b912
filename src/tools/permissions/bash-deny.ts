/** The view of a Bash command that deny rules match against. */
import { formatCommand } from './command-pattern.ts';
import { splitCommand, type ShellWord, type SimpleCommand } from './shell-split.ts';

/**
 * Deny rules must hold even against commands written to slip past them, so a
 * deny check looks at every form of every part a human would read as "that
 * command": the whole line, each simple command, the commands inside `$(…)`,
 * `sh -c '…'`, `eval …`, `find -exec …`, and each command with the wrappers
 * that merely run another command (`sudo`, `env`, `timeout`, `xargs`, …)
 * taken off. This over-approximates on purpose: a deny rule that fires on
 * `command -v rm` is an annoyance; one that misses `sudo rm` is a hole.
 */

const MAX_DEPTH = 6;

/** Shell keywords that may precede a command in a list (`if rm x; then …`). */
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
]);

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

function basename(word: string): string {
  const slash = word.lastIndexOf('/');
  return slash < 0 ? word : word.slice(slash + 1);
}

/** The words after one leading wrapper or keyword, or null when the first word is neither. */
function unwrapOnce(words: ShellWord[]): ShellWord[] | null {
  const first = words[0];
  if (!first) return null;
  const name = basename(first.value);
  if (KEYWORDS.has(first.value)) return words.slice(1);
  const withValue = WRAPPERS.get(name);
  if (!withValue) return null;
  let i = 1;
  while (i < words.length) {
    const w = words[i]?.value ?? '';
    if (w === '--') {
      i++;
      break;
    }
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
  return words.slice(i);
}

function wordsText(words: ShellWord[], key: 'raw' | 'value'): string {
  return words.map((w) => w[key]).join(' ');
}

interface Collected {
  forms: Set<string>;
  /** Some command's name is only known at run time (`$X`, `r?`), so no deny rule can be checked on it. */
  opaque: boolean;
}

/** Every form of one simple command that a deny rule is tested against. */
function commandForms(cmd: SimpleCommand, depth: number, acc: Collected): void {
  const out = acc.forms;
  out.add(formatCommand(cmd, { assignments: true, redirections: false }));
  out.add(formatCommand(cmd, { assignments: true, redirections: true }));
  let words: ShellWord[] | null = cmd.words;
  for (let step = 0; words && words.length > 0 && step < 12; step++) {
    out.add(wordsText(words, 'raw'));
    out.add(wordsText(words, 'value'));
    const first = words[0];
    if (first?.expands) acc.opaque = true;
    if (first && first.value.includes('/')) {
      // `/bin/rm -rf x` is `rm -rf x`.
      out.add([basename(first.value), ...words.slice(1).map((w) => w.value)].join(' '));
    }
    nestedForms(words, depth, acc);
    words = unwrapOnce(words);
  }
}

/** Commands that a command runs from its own arguments: `sh -c '…'`, `eval …`, `find … -exec …`, `env -S '…'`. */
function nestedForms(words: ShellWord[], depth: number, acc: Collected): void {
  const name = basename(words[0]?.value ?? '');
  if (SHELLS.has(name)) {
    const c = words.findIndex((w, i) => i > 0 && /^-[A-Za-z]*c[A-Za-z]*$/.test(w.value));
    const script = c > 0 ? words[c + 1] : undefined;
    if (script) collectDenyForms(script.value, depth + 1, acc);
  }
  if (name === 'eval' || name === 'source' || name === '.') {
    collectDenyForms(words.slice(1).map((w) => w.value).join(' '), depth + 1, acc);
  }
  if (name === 'env') {
    const s = words.findIndex((w) => w.value === '-S' || w.value === '--split-string');
    const script = s > 0 ? words[s + 1] : undefined;
    if (script) collectDenyForms(script.value, depth + 1, acc);
  }
  if (name === 'find') {
    for (let i = 1; i < words.length; i++) {
      if (!['-exec', '-execdir', '-ok', '-okdir'].includes(words[i]?.value ?? '')) continue;
      const end = words.findIndex((w, j) => j > i && (w.value === ';' || w.value === '+'));
      const inner = words.slice(i + 1, end < 0 ? words.length : end);
      if (inner.length > 0) acc.forms.add(wordsText(inner, 'value'));
    }
  }
}

function collectDenyForms(line: string, depth: number, acc: Collected): void {
  const whole = line.trim();
  if (whole.length > 0) acc.forms.add(whole);
  if (depth > MAX_DEPTH) return;
  const split = splitCommand(line);
  for (const cmd of split.commands) commandForms(cmd, depth, acc);
  for (const inner of split.nested) collectDenyForms(inner, depth + 1, acc);
  // An unclosed quote hides the rest of the line from the reader; read it again with quotes dropped.
  if (split.hazards.includes('unbalanced_quotes')) collectDenyForms(line.replace(/["'`]/g, ' '), depth + 1, acc);
}

export interface DenyView {
  /** All the texts a Bash deny rule is tested against for this command line. */
  forms: string[];
  /** True when some command name is only known at run time: deny rules cannot vouch that it is not theirs. */
  opaque: boolean;
}

/** The last line analysed: every deny rule of a policy asks about the same command in turn. */
let cache: { line: string; view: DenyView } | null = null;

export function denyView(line: string): DenyView {
  if (cache?.line === line) return cache.view;
  const acc: Collected = { forms: new Set(), opaque: false };
  collectDenyForms(line, 0, acc);
  cache = { line, view: { forms: [...acc.forms], opaque: acc.opaque } };
  return cache.view;
}
