import { describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatIssue, loadSkills, type DefinitionRoots } from '../../src/skills/index.ts';
import { useTmp, write } from '../config/tmp.ts';

const tmp = useTmp();

function rootsIn(base: string): DefinitionRoots {
  return { projectRoot: join(base, 'proj'), configDir: join(base, 'config', 'moat'), home: join(base, 'home') };
}

const skillText = (description: string, extra = '') => `---\ndescription: ${description}\n${extra}---\nBody of ${description}: $ARGUMENTS\n`;

describe('loadSkills', () => {
  test('bundled skills are there with no folders at all', () => {
    const { items, issues } = loadSkills(rootsIn(tmp()));
    expect(issues).toEqual([]);
    expect(items.map((s) => [s.name, s.source])).toEqual([
      ['code-review', 'bundled'],
      ['commit', 'bundled'],
      ['explain', 'bundled'],
      ['write-tests', 'bundled'],
    ]);
  });

  test('project beats user beats bundled; within a level .moat beats .claude beats .agents', () => {
    const base = tmp();
    const r = rootsIn(base);
    write(join(r.home!, '.claude', 'skills', 'explain', 'SKILL.md'), skillText('claude-home explain'));
    write(join(r.configDir, 'skills', 'explain', 'SKILL.md'), skillText('user explain'));
    write(join(r.configDir, 'skills', 'commit', 'SKILL.md'), skillText('user commit'));
    write(join(r.home!, '.claude', 'skills', 'personal', 'SKILL.md'), skillText('claude-home personal'));
    write(join(r.projectRoot, '.agents', 'skills', 'commit', 'SKILL.md'), skillText('agents commit'));
    write(join(r.projectRoot, '.claude', 'skills', 'commit', 'SKILL.md'), skillText('claude commit'));
    write(join(r.projectRoot, '.moat', 'skills', 'commit', 'SKILL.md'), skillText('moat commit'));
    write(join(r.projectRoot, '.claude', 'skills', 'deploy', 'SKILL.md'), skillText('claude deploy'));

    const { items, issues } = loadSkills(r);
    expect(issues).toEqual([]);
    const summary = Object.fromEntries(items.map((s) => [s.name, `${s.source}: ${s.description}`]));
    expect(summary).toEqual({
      'code-review': 'bundled: Reviews the staged changes, or a given file or folder, for correctness, security, performance and maintainability, and reports the findings in a table. Read-only.',
      commit: 'project: moat commit',
      deploy: 'project: claude deploy',
      explain: 'user: user explain',
      personal: 'user: claude-home personal',
      'write-tests': 'bundled: Adds tests for a given file, following the project\'s test framework, layout and conventions, then runs them.',
    });
    const commit = items.find((s) => s.name === 'commit')!;
    expect(commit.file).toBe(join(r.projectRoot, '.moat', 'skills', 'commit', 'SKILL.md'));
    expect(commit.dir).toBe(join(r.projectRoot, '.moat', 'skills', 'commit'));
  });

  test('without home, Claude Code personal folders are not searched', () => {
    const base = tmp();
    const r = rootsIn(base);
    write(join(r.home!, '.claude', 'skills', 'personal', 'SKILL.md'), skillText('claude-home personal'));
    expect(loadSkills({ projectRoot: r.projectRoot, configDir: r.configDir }).items.map((s) => s.name)).not.toContain('personal');
  });

  test('bad files are reported with file and field and skipped; the rest load', () => {
    const base = tmp();
    const r = rootsIn(base);
    const dir = join(r.projectRoot, '.moat', 'skills');
    write(join(dir, 'good', 'SKILL.md'), skillText('fine'));
    const noDesc = write(join(dir, 'no-desc', 'SKILL.md'), '---\nname: no-desc\n---\nbody\n');
    const badArgs = write(join(dir, 'bad-args', 'SKILL.md'), '---\ndescription: d\nargs:\n  - name: x\n    required: maybe\n---\nbody\n');
    const badYaml = write(join(dir, 'bad-yaml', 'SKILL.md'), '---\ndescription: "unclosed\n---\nbody\n');
    const noFront = write(join(dir, 'plain', 'SKILL.md'), 'Just a prompt.\n');
    const badName = write(join(dir, 'Bad Name', 'SKILL.md'), skillText('x'));
    const emptyBody = write(join(dir, 'empty', 'SKILL.md'), '---\ndescription: d\n---\n\n');
    mkdirSync(join(dir, 'not-a-skill'), { recursive: true });
    write(join(dir, 'not-a-skill', 'notes.md'), 'support file');

    const { items, issues } = loadSkills(r);
    expect(items.filter((s) => s.source === 'project').map((s) => s.name)).toEqual(['good']);
    const byFile = Object.fromEntries(issues.map((i) => [i.file, { field: i.field, skipped: i.skipped }]));
    expect(byFile).toEqual({
      [noDesc]: { field: 'description', skipped: true },
      [badArgs]: { field: 'args[0].required', skipped: true },
      [badYaml]: { field: undefined, skipped: true },
      [noFront]: { field: undefined, skipped: true },
      [badName]: { field: 'name', skipped: true },
      [emptyBody]: { field: undefined, skipped: true },
    });
    const line = formatIssue(issues.find((i) => i.file === noDesc)!);
    expect(line).toBe(`${noDesc}: description: is required: one line saying what the skill does (skipped)`);
  });

  test('two folders in one place claiming the same name: the second is reported, the first kept', () => {
    const base = tmp();
    const r = rootsIn(base);
    const dir = join(r.projectRoot, '.moat', 'skills');
    write(join(dir, 'a', 'SKILL.md'), skillText('first', 'name: same\n'));
    const second = write(join(dir, 'b', 'SKILL.md'), skillText('second', 'name: same\n'));
    const { items, issues } = loadSkills(r);
    expect(items.find((s) => s.name === 'same')?.description).toBe('first');
    expect(issues.map((i) => [i.file, i.field])).toEqual([[second, 'name']]);
  });

  test("a Claude Code SKILL.md loads: name, description, comma-separated allowed-tools, extra fields ignored", () => {
    const base = tmp();
    const r = rootsIn(base);
    write(
      join(r.projectRoot, '.claude', 'skills', 'pdf-forms', 'SKILL.md'),
      [
        '---',
        'name: pdf-forms',
        'description: Fill in PDF forms. Use when the user mentions PDF forms or form fields.',
        'allowed-tools: Read, Bash(python3 scripts/fill.py:*), Write',
        'license: MIT',
        'argument-hint: [pdf-file]',
        'metadata:',
        '  version: 2',
        '---',
        'Read FORMS.md first, then fill $ARGUMENTS.',
        '',
      ].join('\n'),
    );
    const skill = loadSkills(r).items.find((s) => s.name === 'pdf-forms');
    expect(skill).toEqual({
      name: 'pdf-forms',
      description: 'Fill in PDF forms. Use when the user mentions PDF forms or form fields.',
      allowedTools: ['Read', 'Bash(python3 scripts/fill.py:*)', 'Write'],
      args: [],
      argumentHint: '[pdf-file]',
      body: 'Read FORMS.md first, then fill $ARGUMENTS.',
      source: 'project',
      file: join(r.projectRoot, '.claude', 'skills', 'pdf-forms', 'SKILL.md'),
      dir: join(r.projectRoot, '.claude', 'skills', 'pdf-forms'),
    });
  });

  test('the name defaults to the folder name; args accept full entries and bare names', () => {
    const base = tmp();
    const r = rootsIn(base);
    write(
      join(r.projectRoot, '.moat', 'skills', 'bump', 'SKILL.md'),
      '---\ndescription: Bump a version\nwhen_to_use: releasing\nallowed-tools: [Read, Edit]\nargs:\n  - name: part\n    description: major, minor or patch\n    required: true\n  - note\n---\nBump the $1 version.\n',
    );
    const skill = loadSkills(r).items.find((s) => s.name === 'bump');
    expect(skill?.whenToUse).toBe('releasing');
    expect(skill?.allowedTools).toEqual(['Read', 'Edit']);
    expect(skill?.args).toEqual([
      { name: 'part', description: 'major, minor or patch', required: true },
      { name: 'note', required: false },
    ]);
  });

  test("Claude Code's custom commands: the file name is the command, frontmatter optional, sub-folders group them; a skill of the same name wins", () => {
    const base = tmp();
    const r = rootsIn(base);
    write(join(r.home!, '.claude', 'commands', 'standup.md'), '# Summarise what I did yesterday\nUse git log for $ARGUMENTS.\n');
    write(join(r.projectRoot, '.claude', 'commands', 'fix-issue.md'), '---\ndescription: Fix a GitHub issue\nargument-hint: [number]\nallowed-tools: Bash(gh issue view:*), Edit\nmodel: claude-opus-4-5\n---\nFix issue #$1 and add a test.\n');
    write(join(r.projectRoot, '.claude', 'commands', 'frontend', 'lint.md'), 'Lint the frontend.\n');
    write(join(r.projectRoot, '.claude', 'commands', 'commit.md'), 'Command commit.\n');
    write(join(r.projectRoot, '.claude', 'skills', 'commit', 'SKILL.md'), skillText('skill commit'));
    write(join(r.projectRoot, '.claude', 'commands', 'Bad Name!.md'), 'x\n');
    write(join(r.projectRoot, '.claude', 'commands', 'empty.md'), '---\ndescription: nothing\n---\n');
    const { items, issues } = loadSkills(r);
    const by = Object.fromEntries(items.map((s) => [s.name, s]));
    expect(by['standup']).toMatchObject({ description: 'Summarise what I did yesterday', source: 'user', body: '# Summarise what I did yesterday\nUse git log for $ARGUMENTS.' });
    expect(by['fix-issue']).toMatchObject({ description: 'Fix a GitHub issue', argumentHint: '[number]', allowedTools: ['Bash(gh issue view:*)', 'Edit'], source: 'project' });
    expect(by['lint']).toMatchObject({ description: 'Lint the frontend.', namespace: 'frontend' });
    expect(by['standup']?.namespace).toBeUndefined();
    expect(by['commit']?.description).toBe('skill commit');
    expect(issues.map((i) => [i.file.split('/').pop(), i.message])).toEqual([
      ['Bad Name!.md', '"Bad Name!.md" is not a usable command name (letters, digits, "-", "_", ".")'],
      ['empty.md', 'the body (the prompt after the frontmatter) is empty'],
    ]);
  });
});
