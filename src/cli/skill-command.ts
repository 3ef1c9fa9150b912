/** `moat skill` commands: list, show and init (a run's own skill loading is skill-setup.ts). */
import { resolve } from 'node:path';
import { DefinitionError, initSkill, skillFiles, skillUsage, type DefinitionRoots, type Skill } from '../skills/index.ts';
import { MoatError } from '../util/index.ts';
import { EXIT } from './exit-codes.ts';
import { definitionRoots, loadSkillsReporting } from './skill-setup.ts';
import { out } from './write-out.ts';

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
