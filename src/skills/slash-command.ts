/** Expands `/name args` into a skill's prompt. */
import { renderSkillInvocation } from './render.ts';
import type { Skill } from './types.ts';

export type SlashExpansion =
  /** Not of the form `/name …`: use the prompt as written. */
  | { type: 'none' }
  /** Looks like `/name …` but no skill has that name; the caller decides (warn, and send it as written). */
  | { type: 'unknown'; name: string }
  | { type: 'skill'; skill: Skill; args: string; prompt: string };

/** `/name`, then whitespace or the end: `/etc/hosts is broken` is not a command. */
// A command in a sub-folder is also `/folder:name` (Claude Code's namespaced form).
const SLASH = /^\s*\/([a-z0-9][a-z0-9._:-]*)(?=\s|$)([\s\S]*)$/;

/**
 * Turns `/name args` into the skill's expanded body, as Claude Code does for
 * `claude -p "/name args"`. Everything after the name, newlines included, is
 * the argument text, so `moat -p /code-review < change.patch` hands the patch
 * to the skill. Throws SkillUsageError when a required argument is missing.
 */
export function expandSlashCommand(prompt: string, skills: readonly Skill[]): SlashExpansion {
  const m = SLASH.exec(prompt);
  if (!m) return { type: 'none' };
  const name = m[1] as string;
  const skill = skills.find((s) => s.name === name) ?? skills.find((s) => s.namespace !== undefined && `${s.namespace}:${s.name}` === name);
  if (!skill) return { type: 'unknown', name };
  const args = (m[2] ?? '').trim();
  // The command as typed leads the prompt: it titles the session and tells the model what the user asked for.
  const typed = `/${name}${args ? ` ${args.split('\n')[0]}` : ''}`;
  return { type: 'skill', skill, args, prompt: `${typed}\n\n${renderSkillInvocation(skill, args)}` };
}
