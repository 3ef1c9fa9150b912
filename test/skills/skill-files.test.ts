import { describe, expect, test } from 'bun:test';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { loadSkills, readSkillFile, renderSkillInvocation, skillFiles, type Skill } from '../../src/skills/index.ts';
import { useTmp, write } from '../config/tmp.ts';

const tmp = useTmp();

function skillWithFiles(): { skill: Skill; base: string; dir: string } {
  const base = tmp();
  const dir = join(base, 'proj', '.moat', 'skills', 'forms');
  write(join(dir, 'SKILL.md'), '---\ndescription: Fill forms\n---\nSee FORMS.md. Fill $1.\n');
  write(join(dir, 'FORMS.md'), 'form rules');
  write(join(dir, 'scripts', 'fill.py'), 'print(1)');
  write(join(dir, '.hidden'), 'secret');
  write(join(base, 'outside.txt'), 'outside');
  symlinkSync(join(base, 'outside.txt'), join(dir, 'escape.txt'));
  const skill = loadSkills({ projectRoot: join(base, 'proj'), configDir: join(base, 'cfg') }).items.find((s) => s.name === 'forms');
  if (!skill) throw new Error('skill did not load');
  return { skill, base, dir };
}

describe('skill folders', () => {
  test('the other files are listed (not SKILL.md, not dot-files) and named in the invocation with the folder', () => {
    const { skill, dir } = skillWithFiles();
    expect(skillFiles(skill)).toEqual(['FORMS.md', 'escape.txt', 'scripts/fill.py']);
    const text = renderSkillInvocation(skill, 'a.pdf');
    expect(text).toContain(`Base directory for this skill: ${dir}\n`);
    expect(text).toContain('{"name": "forms", "file": "<path>"}): FORMS.md, escape.txt, scripts/fill.py');
    expect(text).toContain('Fill a.pdf.');
  });

  test('a file inside is read; climbing out, symlinks that lead out, and missing files are refused', () => {
    const { skill } = skillWithFiles();
    expect(readSkillFile(skill, 'scripts/fill.py')).toMatchObject({ ok: true, text: 'print(1)' });
    const refusals = ['../../../../outside.txt', 'escape.txt', '/etc/passwd', 'nope.md'].map((f) => readSkillFile(skill, f));
    expect(refusals.map((r) => r.ok)).toEqual([false, false, false, false]);
    expect(refusals[3]!.ok === false && refusals[3]!.reason).toContain('Its files: FORMS.md, escape.txt, scripts/fill.py');
  });

  test('a bundled skill has no files', () => {
    const bundled = loadSkills({ projectRoot: tmp(), configDir: tmp() }).items.find((s) => s.name === 'commit')!;
    expect(skillFiles(bundled)).toEqual([]);
    expect(readSkillFile(bundled, 'x.md')).toEqual({ ok: false, reason: 'the skill "commit" is built in and has no other files' });
  });
});
