/** `moat skill init`: a SKILL.md to fill in. */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DefinitionError } from './definition-error.ts';
import { NAME_PATTERN } from './schema-helpers.ts';

/** A SKILL.md to fill in: every field present, the optional ones commented out, each explained. */
export function skillSkeleton(name: string): string {
  return `---
# The skill's name: what the user types as /${name} and the model passes to the Skill tool.
# Lowercase letters, digits, "-", "_" or "."; defaults to the folder name.
name: ${name}
# One line the model reads (in its system prompt) to decide when this skill fits. Required.
description: TODO say in one line what this skill does
# Optional: more precisely when to use it, shown beside the description.
# when_to_use: When the user asks to ...
# Optional: the tools this skill should use, as a list or a comma-separated string
# (Claude Code spelling, e.g. Read, Grep, Bash(git diff:*)). moat tells the model; it does not enforce it.
# allowed-tools: Read, Grep, Glob
# Optional: declared arguments. In the body, $1 is the first, $2 the second, \${name} the named one,
# and $ARGUMENTS everything after /${name}. Arguments are split like a shell: "a b" c gives $1 = a b.
# args:
#   - name: target
#     description: the file or folder to work on
#     required: true
---
Describe the task here, as you would brief a capable colleague: the goal, the steps, what to check,
and the shape of the answer you want.

The user's arguments: $ARGUMENTS

Other files in this folder (checklists, templates, scripts) can be read by the model through the Skill tool.
`;
}

/**
 * Writes `<projectRoot>/.moat/skills/<name>/SKILL.md`. Refuses a bad name and
 * never overwrites: the file may hold someone's work.
 */
export function initSkill(projectRoot: string, name: string): string {
  if (!NAME_PATTERN.test(name)) {
    throw new DefinitionError(`"${name}" is not a valid skill name: use lowercase letters, digits, "-", "_" or "." (at most 64), starting with a letter or digit`, 'name');
  }
  const dir = join(projectRoot, '.moat', 'skills', name);
  const file = join(dir, 'SKILL.md');
  if (existsSync(file)) throw new DefinitionError(`${file} already exists; not overwriting it`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, skillSkeleton(name), { flag: 'wx' });
  return file;
}
