/** Expands a skill's body with its arguments. */
import { splitArguments } from './arguments.ts';
import type { Skill } from './types.ts';

/** A skill called without an argument it requires. The message is the fix: the usage line. */
export class SkillUsageError extends Error {
  readonly skill: string;
  constructor(skill: Skill, missing: string[]) {
    super(`/${skill.name} needs ${missing.map((m) => `<${m}>`).join(' ')}: usage: ${skillUsage(skill)}`);
    this.name = 'SkillUsageError';
    this.skill = skill.name;
  }
}

/** `/write-tests <file> [focus]`, or Claude Code's `argument-hint` when there are no declared args. */
export function skillUsage(skill: Skill): string {
  const parts = skill.args.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`));
  if (parts.length === 0 && skill.argumentHint) parts.push(skill.argumentHint);
  return [`/${skill.name}`, ...parts].join(' ');
}

/**
 * One pass, so text that came in through an argument is never expanded again:
 * `$ARGUMENTS` (everything), `$ARGUMENTS[0]` (Claude Code's zero-based form),
 * `$1` … `$N` (one-based), `${name}` for a declared argument. An undeclared
 * `${NAME}` is left alone: skill bodies quote shell snippets.
 */
const PLACEHOLDER = /\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS\b|\$\{([A-Za-z_][\w-]*)\}|\$(\d+)/g;

/**
 * The skill's body with its arguments substituted. Arguments are split like a
 * shell would (`"a b" c` gives `$1` = `a b`). When the body has no
 * placeholder at all, the arguments are appended, as Claude Code does, so
 * they are never silently lost.
 */
export function expandSkill(skill: Skill, rawArgs = ''): string {
  const raw = rawArgs.trim();
  const positional = splitArguments(raw);
  const missing = skill.args.filter((a, i) => a.required && (positional[i] ?? '') === '').map((a) => a.name);
  if (missing.length > 0) throw new SkillUsageError(skill, missing);
  const declared = new Map(skill.args.map((a, i) => [a.name, i]));

  let used = false;
  const body = skill.body.replace(PLACEHOLDER, (whole, zeroBased: string | undefined, named: string | undefined, oneBased: string | undefined) => {
    if (zeroBased !== undefined) {
      used = true;
      return positional[Number(zeroBased)] ?? '';
    }
    if (named !== undefined) {
      const index = declared.get(named);
      if (index === undefined) return whole;
      used = true;
      return positional[index] ?? '';
    }
    if (oneBased !== undefined) {
      used = true;
      return Number(oneBased) === 0 ? whole : (positional[Number(oneBased) - 1] ?? '');
    }
    used = true;
    return raw;
  });
  if (!used && raw !== '') return `${body}\n\nARGUMENTS: ${raw}`;
  return body;
}
