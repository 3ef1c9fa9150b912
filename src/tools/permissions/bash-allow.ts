/** Whether allow rules vouch for a whole Bash command line. */
import { isAbsolute, resolve } from 'node:path';
import { argumentEffects } from './argument-commands.ts';
import { formatCommand, normalizeSpaces, type CommandPattern } from './command-pattern.ts';
import { commandPatternMatches } from './command-pattern-match.ts';
import { denyView } from './bash-deny.ts';
import { readCommandLine, type Redirection, type SimpleCommand } from './shell-syntax.ts';

/**
 * Can allow rules vouch for a whole command line? Every simple command in it
 * must be covered by some rule, and nothing in it may be decided only at run
 * time. The choices, each the safe one that still lets ordinary commands run:
 *
 * - Chaining (`;` `&&` `||` `|` `&` newline): every part needs its own rule.
 *   A rule whose exact text is the whole line also covers it (that is what an
 *   "allow always" of a chained command stores).
 * - Only what the reader's allow-list holds (shell-syntax.ts): `$(…)`,
 *   backticks, `<(…)`, loops, subshells, `${x:-…}`, syntax errors and every
 *   construct it does not know make the line unmatchable; the user approves.
 * - A command name that expands (`$CMD`, `{rm,-rf}`): no rule matches.
 * - Leading assignments (`FOO=1 npm test`): rules are matched against the text
 *   with the assignments, and also without them when every variable is one of
 *   a short list that cannot change what runs (NODE_ENV, CI, LC_*, …).
 *   `PATH=. npm test`, `LD_PRELOAD=… npm test` or `NODE_OPTIONS=… npm test`
 *   need a rule that names them.
 * - `sudo x`: matched as written, so `Bash(x:*)` does not cover it; only a rule
 *   starting with `sudo` does.
 * - Output redirection (`git status > out.txt`) writes a file: a rule for the
 *   command does not cover it. `/dev/null` and the standard streams are free;
 *   other targets are reported as writes, which the caller allows only where
 *   an Edit rule or acceptEdits would allow an edit. A rule written with the
 *   redirection in it (`Bash(git log > log.txt)`) covers that write.
 * - `git -c core.pager=… log`, `git --config-env …`: configuration that runs
 *   a program of its own. Prefix and wildcard rules (`Bash(git:*)`) do not
 *   cover it; only an exact rule does.
 * - The same for commands that run commands or write files through their
 *   arguments (argument-commands.ts): `find -exec`/`-delete`, `sed -i` and
 *   sed's `e` and `w`, awk's `system()`, pipes and `> file`, and a sed or awk
 *   program read from a file. `Bash(sed:*)` was written for a text filter.
 */

export interface CommandRule {
  /** The rule as written, for reasons. */
  text: string;
  pattern: CommandPattern;
}

export type BashAllowCheck =
  | { type: 'unmatchable'; reasons: string[] }
  | {
      type: 'checked';
      /** Simple commands no allow rule covers. */
      uncovered: SimpleCommand[];
      /** Rules that covered some part. */
      matched: string[];
      /** Absolute paths that output redirections not covered by a rule would write. */
      writes: string[];
      /** Redirection targets that cannot be known before the command runs. */
      unknownWrites: string[];
    };

/** Variables that only tune output or build flavour; they cannot make a different program run. */
const SAFE_ENV = new Set([
  'NODE_ENV',
  'CI',
  'DEBUG',
  'FORCE_COLOR',
  'NO_COLOR',
  'TERM',
  'COLUMNS',
  'LINES',
  'TZ',
  'LANG',
  'LANGUAGE',
  'RUST_LOG',
  'RUST_BACKTRACE',
  'GOOS',
  'GOARCH',
  'CGO_ENABLED',
  'PYTHONUNBUFFERED',
  'PYTHONDONTWRITEBYTECODE',
  'NODE_NO_WARNINGS',
  'VERBOSE',
]);

export function isSafeAssignment(raw: string): boolean {
  const name = raw.slice(0, raw.search(/\+?=/));
  return SAFE_ENV.has(name) || /^LC_[A-Z]+$/.test(name);
}

const STREAMS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/fd/1', '/dev/fd/2', '/dev/tty']);
const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);
const CHANGES_DIRECTORY = new Set(['cd', 'pushd', 'popd']);

type WriteTarget = { kind: 'none' } | { kind: 'path'; path: string } | { kind: 'unknown'; raw: string };

function writeTarget(r: Redirection, cwd: string, cwdKnown: boolean): WriteTarget {
  if (!WRITE_OPS.has(r.op) || !r.target) return { kind: 'none' };
  const { value, raw, expands } = r.target;
  // `>&2`, `2>&1`, `>&-`: duplicating or closing a descriptor writes no file.
  if (r.op === '>&' && /^(\d+|-)$/.test(value)) return { kind: 'none' };
  if (STREAMS.has(value)) return { kind: 'none' };
  if (expands || value.startsWith('~') || value === '') return { kind: 'unknown', raw };
  if (!isAbsolute(value) && !cwdKnown) return { kind: 'unknown', raw };
  return { kind: 'path', path: resolve(cwd, value) };
}

/** Git options that set configuration for one run; keys such as core.pager, core.sshCommand or alias.* run commands. */
const GIT_CONFIG_OPTION = /^(-c|--config-env)(=|$)/;

/** `git -c …` or `git --config-env …` before the subcommand: the command may run whatever the configuration names. */
export function setsGitConfig(cmd: SimpleCommand): boolean {
  const [name, ...rest] = cmd.words;
  if (name === undefined || name.value.replace(/^.*\//, '') !== 'git') return false;
  for (const w of rest) {
    if (GIT_CONFIG_OPTION.test(w.value)) return true;
    if (!w.value.startsWith('-')) return false;
  }
  return false;
}

/** Only an exact rule covers it: configuration that runs a program, or arguments that run commands or write files. */
export function needsExactRule(cmd: SimpleCommand): boolean {
  if (setsGitConfig(cmd)) return true;
  const effects = argumentEffects(cmd.words);
  return effects !== null && (effects.runs || effects.writes);
}

function describeDynamicName(cmd: SimpleCommand): string | null {
  const first = cmd.words[0];
  if (!first?.expands) return null;
  return `the command name ${first.raw} is only known when it runs`;
}

/** Check a Bash command line against the allow rules; `cwd` resolves relative redirection targets. */
export function checkBashAllow(line: string, rules: readonly CommandRule[], cwd: string): BashAllowCheck {
  const parsed = readCommandLine(line);
  const reasons = parsed.unsupported.map((what) => `it uses ${what}`);
  for (const cmd of parsed.commands) {
    const dynamic = describeDynamicName(cmd);
    if (dynamic) reasons.push(dynamic);
  }
  if (reasons.length > 0) return { type: 'unmatchable', reasons };

  const wholeLine = normalizeSpaces(line);
  const whole = rules.find((r) => r.pattern.type === 'exact' && r.pattern.line === wholeLine);
  if (whole) return { type: 'checked', uncovered: [], matched: [whole.text], writes: [], unknownWrites: [] };

  const uncovered: SimpleCommand[] = [];
  const matched = new Set<string>();
  const writes: string[] = [];
  const unknownWrites: string[] = [];
  let cwdKnown = true;
  for (const cmd of parsed.commands) {
    const exactOnly = needsExactRule(cmd);
    const safeAssignments = cmd.assignments.every((a) => isSafeAssignment(a.raw));
    const argvForms = [formatCommand(cmd, { assignments: true, redirections: false })];
    const fullForms = [formatCommand(cmd, { assignments: true, redirections: true })];
    if (safeAssignments) {
      argvForms.push(formatCommand(cmd, { assignments: false, redirections: false }));
      fullForms.push(formatCommand(cmd, { assignments: false, redirections: true }));
    }
    let covered = cmd.words.length === 0 && safeAssignments;
    let writesCovered = false;
    for (const rule of rules) {
      if (cmd.words.length === 0) break;
      if (exactOnly && rule.pattern.type !== 'exact') continue;
      // Only a rule that spells the redirection out covers the write it makes.
      if (rule.pattern.type === 'exact' && cmd.redirections.length > 0 && fullForms.some((f) => commandPatternMatches(rule.pattern, f))) {
        covered = true;
        writesCovered = true;
        matched.add(rule.text);
        break;
      }
      if (!covered && argvForms.some((f) => commandPatternMatches(rule.pattern, f))) {
        covered = true;
        matched.add(rule.text);
      }
    }
    if (!covered) uncovered.push(cmd);
    if (!writesCovered) {
      for (const r of cmd.redirections) {
        const target = writeTarget(r, cwd, cwdKnown);
        if (target.kind === 'path') writes.push(target.path);
        else if (target.kind === 'unknown') unknownWrites.push(target.raw);
      }
    }
    if (CHANGES_DIRECTORY.has(cmd.words[0]?.value ?? '')) cwdKnown = false;
  }
  return { type: 'checked', uncovered, matched: [...matched], writes, unknownWrites };
}

/**
 * Files that output redirections anywhere in the line would write, where they
 * can be named before it runs: in subshells and `$(…)`, and in the scripts
 * the line hands to a shell (`sh -c '…'`, here-documents). Deny rules for
 * Edit are checked on them, so `echo x > .env` meets `Edit(.env)` even when
 * the line is otherwise unreadable.
 */
export function redirectionWrites(line: string, cwd: string): string[] {
  const out: string[] = [];
  for (const script of denyView(line).scripts) {
    for (const r of readCommandLine(script).redirections) {
      const target = writeTarget(r, cwd, true);
      if (target.kind === 'path') out.push(target.path);
    }
  }
  return out;
}

/**
 * Files that find, sed and awk anywhere in the line write through their own
 * arguments (`sed -i … .env`, `sed 'w .env'`, `awk '{print > ".env"}'`,
 * `find … -fprint .env`, `find .env -delete`), where their programs name
 * them, resolved as redirection targets are. Edit deny rules are checked on
 * them as they are on redirection targets.
 */
export function argumentWrites(line: string, cwd: string): string[] {
  return denyView(line).argumentWrites.files.map((file) => resolve(cwd, file));
}
