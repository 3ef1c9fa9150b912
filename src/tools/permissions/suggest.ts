/** Rules to offer for "allow always" and denial hints. */
import { dirname, relative, sep } from 'node:path';
import { isWithin, nodeOs } from '../../util/index.ts';
import { needsExactRule } from './bash-allow.ts';
import { formatCommand, normalizeSpaces } from './command-pattern.ts';
import type { PathBases } from './path-pattern.ts';
import { callPaths, callRuleName, hostOf, type PermissionCall } from './rule-match.ts';
import { readCommandLine, type SimpleCommand } from './shell-syntax.ts';

/**
 * Rules to offer: what "allow always" stores, and what denial hints quote.
 * Bash follows Claude Code's "don't ask again for `npm run test:*`": a prefix
 * of the command's first word(s); commands that delete, escalate, fetch or run
 * arbitrary code get the exact command instead, because a prefix rule for
 * them would approve far more than the user saw.
 */

/** Tools whose second word is a subcommand worth keeping in a prefix (`git status`, `cargo build`). */
const SUBCOMMAND_TOOLS = new Set([
  'git', 'npm', 'pnpm', 'yarn', 'bun', 'npx', 'bunx', 'cargo', 'go', 'docker', 'podman', 'kubectl', 'pip', 'pip3',
  'uv', 'poetry', 'gh', 'deno', 'dotnet', 'mvn', 'gradle', './gradlew', 'terraform', 'brew', 'rustup', 'composer',
  'make', 'just', 'swift', 'mix', 'rake', 'bundle', 'pytest', 'jest', 'vitest', 'tsc', 'eslint', 'prettier',
]);
/** Script runners whose third word names the script (`npm run test`). */
const RUNNERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const RUN_WORDS = new Set(['run', 'run-script', 'x', 'exec']);

/** Commands where any prefix rule would approve too much. */
const RISKY = new Set([
  'rm', 'rmdir', 'shred', 'dd', 'mkfs', 'sudo', 'doas', 'su', 'chmod', 'chown', 'chgrp', 'mv', 'ln', 'curl', 'wget',
  'ssh', 'scp', 'rsync', 'nc', 'kill', 'killall', 'pkill', 'shutdown', 'reboot', 'eval', 'exec', 'source', '.',
  'xargs', 'env', 'find', 'sh', 'bash', 'zsh', 'dash', 'fish', 'python', 'python3', 'node', 'perl', 'ruby', 'php',
  'osascript', 'crontab', 'truncate', 'tee', 'install',
]);

function plain(cmd: SimpleCommand, i: number): string | null {
  const w = cmd.words[i];
  if (!w || w.expands || w.raw !== w.value || w.value.startsWith('-')) return null;
  return w.value;
}

/** The first word(s) that name what a command does: `git status`, `npm run test`, `ls`. Null if unclear. */
export function commandPrefix(cmd: SimpleCommand): string | null {
  const first = plain(cmd, 0);
  if (first === null) return null;
  const second = SUBCOMMAND_TOOLS.has(first) ? plain(cmd, 1) : null;
  if (second === null) return first;
  const third = RUNNERS.has(first) && RUN_WORDS.has(second) ? plain(cmd, 2) : null;
  return third === null ? `${first} ${second}` : `${first} ${second} ${third}`;
}

/** A command written inside `Bash(…)` so that it parses back to exactly itself. */
export function escapeCommandSpec(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\*/g, '\\*').replace(/[()]/g, '\\$&');
}

/** Escape gitignore's special characters and the rule syntax's parentheses in a literal path. */
function escapePathSpec(p: string): string {
  return p.replace(/[\\*?[\]]/g, '\\$&').replace(/[()]/g, '\\$&');
}

/**
 * `Read(//etc/hosts)`, `Edit(src/a.ts)`, `Read(~/.npmrc)`: the rule for exactly
 * this path, or with `suffix` (`/**`) for everything under it.
 */
export function pathRule(ruleName: string, absPath: string, bases: PathBases, suffix = ''): string {
  if (isWithin(bases.projectRoot, absPath) && absPath !== bases.projectRoot) {
    const rel = escapePathSpec(relative(bases.projectRoot, absPath).split(sep).join('/')) + suffix;
    // A pattern without a slash would match at any depth; anchor it at the root.
    return `${ruleName}(${rel.includes('/') ? '' : '/'}${rel})`;
  }
  if (isWithin(bases.home, absPath) && absPath !== bases.home) {
    return `${ruleName}(~/${escapePathSpec(relative(bases.home, absPath))}${suffix})`;
  }
  return `${ruleName}(/${escapePathSpec(absPath)}${suffix})`;
}

/**
 * The rule for the folder holding `paths` (`Edit(src/components/**)`), or for
 * the single path itself when that folder is the project root, the home folder
 * or `/` (a rule for all of those is not something to store by accident).
 */
export function folderRule(ruleName: string, paths: readonly string[], bases: PathBases): string | null {
  const first = paths[0];
  if (first === undefined) return null;
  let folder = dirname(first);
  for (const p of paths.slice(1)) while (!isWithin(folder, p)) folder = dirname(folder);
  const tooWide = folder === bases.projectRoot || folder === bases.home || folder === dirname(folder);
  if (tooWide) return paths.length === 1 ? pathRule(ruleName, first, bases) : null;
  return pathRule(ruleName, folder, bases, '/**');
}

/** The exact rule and, when different, a broader prefix rule for one simple command. */
export function commandRules(cmd: SimpleCommand): { exact: string; prefix: string | null } {
  const text = formatCommand(cmd, { assignments: true, redirections: true });
  const exact = `Bash(${escapeCommandSpec(text)})`;
  // No prefix rule covers `git -c …`, `sed -i …` and the like (bash-allow.ts), so none is offered.
  const prefix = cmd.assignments.length === 0 && !needsExactRule(cmd) ? commandPrefix(cmd) : null;
  return { exact, prefix: prefix === null ? null : `Bash(${escapeCommandSpec(prefix)}:*)` };
}

/** Why no rule can pre-approve this command line, or null when one can. */
export function unmatchableReason(line: string): string | null {
  const parsed = readCommandLine(line);
  const first = parsed.unsupported[0];
  if (first !== undefined) return `it uses ${first}`;
  const dynamic = parsed.commands.find((c) => c.words[0]?.expands);
  return dynamic ? `its command name ${dynamic.words[0]?.raw ?? ''} is only known when it runs` : null;
}

function bashRule(line: string): string {
  const parsed = readCommandLine(line);
  const only = parsed.commands.length === 1 ? parsed.commands[0] : undefined;
  if (only && parsed.unsupported.length === 0 && !only.words[0]?.expands) {
    const { exact, prefix } = commandRules(only);
    const name = only.words[0]?.value ?? '';
    return prefix !== null && !RISKY.has(name) && only.redirections.length === 0 ? prefix : exact;
  }
  // A chain is stored whole: an exact rule equal to the whole line covers it.
  return `Bash(${escapeCommandSpec(normalizeSpaces(line))})`;
}

/**
 * The rule an "allow always" answer stores for this call. Bash: a prefix rule
 * (`Bash(npm run test:*)`) for ordinary commands, the exact command for risky
 * ones and for chains; a command that no rule can pre-approve (`$(…)`) still
 * gets its exact rule, which will not match it — check `unmatchableReason`
 * first. Read/Edit: the folder holding the path (`Edit(src/lib/**)`), or the
 * path itself at the top of the project, home or `/`. WebFetch: the host.
 * Anything else: `Name(subject)` when there is a subject, else `Name`.
 */
export function ruleForCall(call: PermissionCall, projectRoot: string, home = nodeOs().homedir()): string {
  const bases = { projectRoot, home };
  const name = callRuleName(call);
  const subject = call.intent.subject;
  if (name === 'Bash' && subject !== undefined) return bashRule(subject);
  if (name === 'Read' || name === 'Edit') {
    const paths = callPaths(call, bases).map((p) => p.path);
    const rule = folderRule(name, paths, bases);
    if (rule !== null) return rule;
    if (paths[0] !== undefined) return pathRule(name, paths[0], bases);
    return name;
  }
  if (name === 'WebFetch' && subject !== undefined) return `WebFetch(domain:${hostOf(subject)})`;
  if (subject !== undefined && subject !== '') return `${name}(${subject.replace(/[()\\]/g, '\\$&')})`;
  return name;
}
