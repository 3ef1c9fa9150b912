import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledSkills } from './bundled.ts';
import { DefinitionError } from './definition-error.ts';
import { entriesOf } from './read-dir.ts';
import { mergeByName } from './merge.ts';
import { parseSkillFile } from './skill-file.ts';
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

/**
 * Every skill visible from a project: bundled, then the user's, then the
 * project's; a later one of the same name wins. Bad files are returned as
 * issues and skipped, never thrown.
 */
export function loadSkills(roots: DefinitionRoots): Loaded<Skill> {
  const issues: DefinitionIssue[] = [];
  const bundled = bundledSkills();
  const groups = [
    { dir: '<bundled>', items: bundled },
    ...sourceDirs('skills', roots).map((src) => ({ dir: src.dir, items: skillsIn(src, issues) })),
  ];
  return { items: mergeByName(groups, issues), issues };
}
