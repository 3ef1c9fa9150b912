/** What the model receives when a skill is invoked. */
import { expandSkill } from './expand.ts';
import { skillFiles } from './skill-files.ts';
import type { Skill } from './types.ts';

/**
 * What the model receives when a skill is invoked (by the skill tool or as
 * `/name args`): the expanded body, preceded by where its files are and which
 * tools it expects. Throws SkillUsageError when a required argument is missing.
 */
export function renderSkillInvocation(skill: Skill, rawArgs = ''): string {
  const notes: string[] = [];
  if (skill.dir) {
    notes.push(`Base directory for this skill: ${skill.dir}`);
    const files = skillFiles(skill);
    if (files.length > 0) {
      notes.push(`Its other files (read one with the Skill tool: {"name": "${skill.name}", "file": "<path>"}): ${files.join(', ')}`);
    }
  }
  if (skill.allowedTools && skill.allowedTools.length > 0) {
    // Advisory only: moat's permission rules still decide what runs; the skill cannot grant or block tools.
    notes.push(`While following this skill, use only these tools: ${skill.allowedTools.join(', ')}. (moat does not enforce this list; keeping to it is up to you.)`);
  }
  const body = expandSkill(skill, rawArgs);
  const header = `<skill name="${skill.name}">`;
  return [header, ...notes, notes.length > 0 ? '' : undefined, body, '</skill>'].filter((l) => l !== undefined).join('\n');
}
