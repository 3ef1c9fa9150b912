/** Skills and agent definitions for a run: where they are looked for, loaded with a warning per bad file, and `-p "/name args"`. */
import { findProjectRoot, moatPaths } from '../config/index.ts';
import { expandSlashCommand, formatIssue, loadSkills, SkillUsageError, type DefinitionIssue, type DefinitionRoots, type Skill } from '../skills/index.ts';
import { MoatError, homeOf } from '../util/index.ts';
import { err } from './write-out.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Where skills and agents are looked for, from a working folder. */
export function definitionRoots(cwd: string, env: Env = process.env, sources?: readonly ('user' | 'project' | 'local')[]): DefinitionRoots {
  return { projectRoot: findProjectRoot(cwd), configDir: moatPaths(env).configDir, home: homeOf(env), ...(sources === undefined ? {} : { include: sources }) };
}

/** A bad skill or agent file is one warning line on stderr; the rest load. */
export function reportIssues(issues: readonly DefinitionIssue[]): void {
  for (const issue of issues) err(`moat: warning: ${formatIssue(issue)}\n`);
}

export function loadSkillsReporting(roots: DefinitionRoots): Skill[] {
  const loaded = loadSkills(roots);
  reportIssues(loaded.issues);
  return loaded.items;
}

/**
 * `moat -p "/name args"`: the prompt becomes the skill's expanded body. A
 * `/word` that names no skill is sent as written, with a warning, since it
 * may simply be a path the prompt starts with.
 */
export function promptWithSkill(prompt: string, skills: readonly Skill[]): { prompt: string; skill?: Skill } {
  let expansion;
  try {
    expansion = expandSlashCommand(prompt, skills);
  } catch (e) {
    if (e instanceof SkillUsageError) throw new MoatError('usage', e.message);
    throw e;
  }
  switch (expansion.type) {
    case 'none':
      return { prompt };
    case 'unknown':
      err(`moat: warning: /${expansion.name} is not a skill; sending the prompt as written (moat skill list shows the skills)\n`);
      return { prompt };
    case 'skill':
      return { prompt: expansion.prompt, skill: expansion.skill };
  }
}
