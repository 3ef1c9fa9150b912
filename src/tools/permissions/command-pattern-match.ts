/**
 * Matching `Bash(…)` command patterns. Apart from the parsing (command-pattern.ts):
 * an exact pattern is compared in the shell grammar's canonical spelling, and
 * the grammar's reader loads with the first Bash permission check, not with
 * the rules parsed at start-up.
 */
import { formatCommand, type CommandPattern } from './command-pattern.ts';
import { readCommandLine } from './shell-syntax.ts';

/**
 * An exact rule's command in formatCommand's canonical spelling (`git log
 * >out.txt` for `git log > out.txt`), or null when it is not one plain simple
 * command, worked out on the pattern's first match and kept.
 */
const canonical = new WeakMap<CommandPattern, string | null>();

function canonicalCommand(pattern: CommandPattern & { type: 'exact' }): string | null {
  let known = canonical.get(pattern);
  if (known === undefined) {
    const parsed = readCommandLine(pattern.line);
    const single = parsed.unsupported.length === 0 && parsed.commands.length === 1 ? parsed.commands[0] : undefined;
    known = single ? formatCommand(single, { assignments: true, redirections: true }) : null;
    canonical.set(pattern, known);
  }
  return known;
}

/** Does `pattern` match one form of a command (a simple command's canonical text)? */
export function commandPatternMatches(pattern: CommandPattern, text: string): boolean {
  switch (pattern.type) {
    case 'any':
      return true;
    case 'exact':
      return pattern.line === text || canonicalCommand(pattern) === text;
    case 'wildcard':
      return pattern.regex.test(text);
  }
}
