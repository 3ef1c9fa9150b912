/** `moat skill` commands and the `/name args` expansion of skills for -p. */
import { resolve } from 'node:path';
import { findProjectRoot, moatPaths } from '../config/index.ts';
import {
  DefinitionError,
  expandSlashCommand,
  formatIssue,
  initSkill,
  loadSkills,
  skillFiles,
  skillUsage,
  SkillUsageError,
  type DefinitionIssue,
  type DefinitionRoots,
  type Skill,
} from '../skills/index.ts';
import { MoatError, homeOf } from '../util/index.ts';
import { EXIT } from './exit-codes.ts';
import { err, out } from './write-out.ts';

type Env = Readonly<Record<string, string | undefined>>;

/** Where skills and agents are looked for, from a working folder. */
export function definitionRoots(cwd: string, env: Env = process.env): DefinitionRoots {
  return { projectRoot: findProjectRoot(cwd), configDir: moatPaths(env).configDir, home: homeOf(env) };
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

function rootsFor(opts: { cwd?: string }): DefinitionRoots {
  return definitionRoots(resolve(opts.cwd ?? process.cwd()));
}

function findSkill(skills: readonly Skill[], name: string): Skill {
  const skill = skills.find((s) => s.name === name);
  if (skill) return skill;
  throw new MoatError('not_found', `no skill named "${name}" (skills: ${skills.map((s) => s.name).join(', ') || 'none'})`);
}

export function formatSkillList(skills: readonly Skill[]): string {
  if (skills.length === 0) return 'no skills\n';
  const nameWidth = Math.max(...skills.map((s) => s.name.length));
  const sourceWidth = Math.max(...skills.map((s) => s.source.length));
  return skills.map((s) => `${s.name.padEnd(nameWidth)}  ${s.source.padEnd(sourceWidth)}  ${s.description}\n`).join('');
}

export function formatSkillDetails(skill: Skill): string {
  const lines = [`name: ${skill.name}`, `source: ${skill.source} (${skill.file})`, `description: ${skill.description}`];
  if (skill.whenToUse) lines.push(`when to use: ${skill.whenToUse}`);
  lines.push(`usage: ${skillUsage(skill)}`);
  if (skill.args.length > 0) {
    lines.push('arguments:');
    for (const a of skill.args) lines.push(`  ${a.name} (${a.required ? 'required' : 'optional'})${a.description ? `: ${a.description}` : ''}`);
  }
  if (skill.allowedTools) lines.push(`allowed tools: ${skill.allowedTools.join(', ')}`);
  const files = skillFiles(skill);
  if (files.length > 0) lines.push(`files: ${files.join(', ')}`);
  return `${lines.join('\n')}\n\n${skill.body}\n`;
}

export const skillCommands = {
  async skillList(opts: { cwd?: string }): Promise<number> {
    out(formatSkillList(loadSkillsReporting(rootsFor(opts))));
    return EXIT.ok;
  },

  async skillShow(name: string, opts: { cwd?: string }): Promise<number> {
    out(formatSkillDetails(findSkill(loadSkillsReporting(rootsFor(opts)), name)));
    return EXIT.ok;
  },

  async skillInit(name: string, opts: { cwd?: string }): Promise<number> {
    try {
      const file = initSkill(rootsFor(opts).projectRoot, name);
      out(`created ${file}\nedit its description and body; moat skill show ${name} checks that it loads\n`);
      return EXIT.ok;
    } catch (e) {
      if (e instanceof DefinitionError) throw new MoatError('usage', e.message);
      throw e;
    }
  },
};
