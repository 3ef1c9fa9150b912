import { describe, expect, test } from 'bun:test';
import { expandSlashCommand, SkillUsageError, type Skill } from '../../src/skills/index.ts';

const skills: Skill[] = [
  { name: 'explain', description: 'd', args: [{ name: 'target', required: true }], body: 'Explain `$ARGUMENTS`.', source: 'bundled', file: '<bundled>/skills/explain/SKILL.md' },
  { name: 'fix-lint', description: 'd', args: [], body: 'Fix lint in [$1].', source: 'project', file: '/p/SKILL.md', allowedTools: ['Read', 'Edit'] },
];

describe('expandSlashCommand', () => {
  test('/name args becomes the command line, then the expanded skill body', () => {
    expect(expandSlashCommand('/explain src/x.ts', skills)).toEqual({
      type: 'skill',
      skill: skills[0]!,
      args: 'src/x.ts',
      prompt: '/explain src/x.ts\n\n<skill name="explain">\nExplain `src/x.ts`.\n</skill>',
    });
  });

  test('allowed-tools are stated, and said not to be enforced', () => {
    const r = expandSlashCommand('  /fix-lint "src/a b.ts"\n', skills);
    expect(r.type === 'skill' && r.prompt).toBe(
      '/fix-lint "src/a b.ts"\n\n<skill name="fix-lint">\nWhile following this skill, use only these tools: Read, Edit. (moat does not enforce this list; keeping to it is up to you.)\n\nFix lint in [src/a b.ts].\n</skill>',
    );
  });

  test('everything after the name, newlines too, is the argument text (stdin appended to -p)', () => {
    const r = expandSlashCommand('/explain\n\nconst x = 1;', skills);
    expect(r.type === 'skill' && r.args).toBe('const x = 1;');
  });

  test('not a command: plain text, a path, an upper-case word', () => {
    for (const p of ['explain src/x.ts', '/etc/hosts is broken', '/Explain x', '']) expect(expandSlashCommand(p, skills)).toEqual({ type: 'none' });
  });

  test("a command in a sub-folder is reached by its name and as /folder:name, Claude Code's namespaced form", () => {
    const lint: Skill = { name: 'lint', namespace: 'frontend', description: 'd', args: [], body: 'Lint $ARGUMENTS.', source: 'project', file: '/p/.claude/commands/frontend/lint.md' };
    for (const typed of ['/lint src', '/frontend:lint src']) {
      expect(expandSlashCommand(typed, [...skills, lint])).toEqual({ type: 'skill', skill: lint, args: 'src', prompt: `${typed}\n\n<skill name="lint">\nLint src.\n</skill>` });
    }
    expect(expandSlashCommand('/backend:lint src', [...skills, lint])).toEqual({ type: 'unknown', name: 'backend:lint' });
  });

  test('an unknown name is reported as such, for the caller to warn about', () => {
    expect(expandSlashCommand('/explian x', skills)).toEqual({ type: 'unknown', name: 'explian' });
  });

  test('a missing required argument throws the usage', () => {
    expect(() => expandSlashCommand('/explain', skills)).toThrow(SkillUsageError);
  });
});
