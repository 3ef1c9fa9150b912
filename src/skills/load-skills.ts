/** Loads every skill and custom command visible from a project. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledSkills } from './bundled.ts';
import { DefinitionError } from './definition-error.ts';
import { entriesOf } from './read-dir.ts';
import { mergeByName } from './merge.ts';
import { parseSkillFile } from './skill-file.ts';
import { parseCommandFile } from './command-file.ts';
import { sourceDirs, type DefinitionRoots, type SourceDir } from './sources.ts';
import type { DefinitionIssue, Loaded, Skill } from './types.ts';

/** Turns a failure to load one file into a reported issue, so one bad file never stops the rest. */
export function issueFrom(file: string, e: unknown): DefinitionIssue {
  if (e instanceof DefinitionError) return { file, ...(e.field ? { field: e.field } : {}), message: e.message, skipped: true };
  const message = e instanceof Error ? e.message : String(e);
  return { file, message: `cannot be read (${message})`, skipped: true };
}

function skillsIn(src: SourceDir, issues: DefinitionIssue[]): Skill[] {
  const out: Skill[] = [];
  for (const entry of entriesOf(src.dir)) {
    if (!entry.isDir) continue;
    const file = join(entry.path, 'SKILL.md');
    // A folder without SKILL.md may be shared support files; not a skill, not an error.
    if (!existsSync(file)) continue;
    try {
      out.push(parseSkillFile(readFileSync(file, 'utf8'), { file, dir: entry.path, folderName: entry.name, source: src.source }));
    } catch (e) {
      issues.push(issueFrom(file, e));
    }
  }
  return out;
}

/** Claude Code's custom commands in one folder (sub-folders group them; the file name is the command). */
function commandsIn(dir: string, source: SourceDir['source'], issues: DefinitionIssue[], namespace?: string): Skill[] {
  return entriesOf(dir).flatMap((entry) => {
    if (entry.isDir) return commandsIn(entry.path, source, issues, namespace === undefined ? entry.name.toLowerCase() : `${namespace}:${entry.name.toLowerCase()}`);
    if (!entry.isFile || !entry.name.toLowerCase().endsWith('.md')) return [];
    try {
      const command = parseCommandFile(readFileSync(entry.path, 'utf8'), { file: entry.path, fileName: entry.name, source });
      return [namespace === undefined ? command : { ...command, namespace }];
    } catch (e) {
      issues.push(issueFrom(entry.path, e));
      return [];
    }
  });
}

/**
 * Every skill visible from a project: bundled, then the user's, then the
 * project's; a later one of the same name wins (a skill over a custom
 * command of the same name at the same level). Bad files are returned as
 * issues and skipped, never thrown.
 */
export function loadSkills(roots: DefinitionRoots): Loaded<Skill> {
  const issues: DefinitionIssue[] = [];
  const bundled = bundledSkills();
  const groups = [
    { dir: '<bundled>', items: bundled },
    ...sourceDirs('skills', roots).flatMap((src) => {
      const skills = { dir: src.dir, items: skillsIn(src, issues) };
      // `.claude/commands` sits beside `.claude/skills`: its commands come just before that level's skills.
      if (!src.dir.endsWith(join('.claude', 'skills'))) return [skills];
      const commandsDir = join(src.dir, '..', 'commands');
      return [{ dir: commandsDir, items: commandsIn(commandsDir, src.source, issues) }, skills];
    }),
  ];
  return { items: mergeByName(groups, issues), issues };
}
