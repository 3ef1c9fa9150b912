/**
 * The bundled skills, tested by expansion: each must parse, take its
 * arguments where the prompt needs them, and carry the instructions that make
 * it what it claims to be.
 */
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { bundledAgents, bundledSkills, expandSkill, parseAgentFile, parseSkillFile, SkillUsageError, type Skill } from '../../src/skills/index.ts';

const skill = (name: string): Skill => {
  const s = bundledSkills().find((x) => x.name === name);
  if (!s) throw new Error(`no bundled skill ${name}`);
  return s;
};

describe('bundled skills', () => {
  test('all four parse, are bundled, and have no folder (no extra files)', () => {
    expect(bundledSkills().map((s) => [s.name, s.source, s.dir, s.file])).toEqual([
      ['code-review', 'bundled', undefined, '<bundled>/skills/code-review/SKILL.md'],
      ['commit', 'bundled', undefined, '<bundled>/skills/commit/SKILL.md'],
      ['explain', 'bundled', undefined, '<bundled>/skills/explain/SKILL.md'],
      ['write-tests', 'bundled', undefined, '<bundled>/skills/write-tests/SKILL.md'],
    ]);
    for (const s of bundledSkills()) {
      expect(s.whenToUse).toBeDefined();
      expect(s.body).not.toMatch(/\bTODO\b/);
    }
  });

  test('code-review: read-only, the four areas, a findings table; no target means the staged changes', () => {
    const s = skill('code-review');
    expect(s.allowedTools?.some((t) => /^(Edit|Write)/.test(t))).toBe(false);
    const staged = expandSkill(s, '');
    expect(staged).toContain('Target: \n');
    expect(staged).toContain('git diff --cached');
    for (const area of ['Correctness', 'Security', 'Performance', 'Maintainability']) expect(staged).toContain(`**${area}**`);
    expect(staged).toContain('| # | Severity | Location | Category | Finding | Suggested fix |');
    expect(staged).toContain('read-only');
    expect(expandSkill(s, 'src/auth')).toContain('Target: src/auth\n');
  });

  test('commit: reads the staged diff and the history, commits only with --commit', () => {
    const s = skill('commit');
    const text = expandSkill(s, 'mention the migration');
    expect(text).toContain('Notes from the user (may be empty): mention the migration\n');
    expect(text).toContain('git diff --cached');
    expect(text).toContain('git log -n 30');
    expect(text).toContain('Commit only if the user\'s notes contain `--commit`');
  });

  test('write-tests: needs a file; the file fills every $1', () => {
    const s = skill('write-tests');
    expect(() => expandSkill(s, '')).toThrow(SkillUsageError);
    const text = expandSkill(s, 'src/date.ts the leap-year branch');
    expect(text).toStartWith('Add tests for `src/date.ts`.');
    expect(text).toContain('Read `src/date.ts` in full');
    expect(text).toContain('which may say what to focus on: src/date.ts the leap-year branch');
    expect(text).not.toMatch(/\$\d|\$ARGUMENTS/);
  });

  test('explain: needs a target; a symbol of several words survives whole', () => {
    const s = skill('explain');
    expect(() => expandSkill(s, '')).toThrow('/explain needs <target>');
    expect(expandSkill(s, 'AgentSession.run')).toStartWith('Explain `AgentSession.run` to an engineer who is new to this codebase.');
    expect(expandSkill(s, 'the retry loop')).toStartWith('Explain `the retry loop`');
  });
});

describe('bundled agents', () => {
  test('explore and review are read-only; general has every tool', () => {
    const byName = Object.fromEntries(bundledAgents().map((a) => [a.name, a]));
    expect(byName.general?.tools).toBeUndefined();
    expect(byName.explore?.tools).toEqual(['Read', 'Grep', 'Glob', 'LS']);
    expect(byName.review?.tools).toEqual(['Read', 'Grep', 'Glob', 'LS']);
    expect(byName.review?.systemPrompt).toContain('| # | Severity | Location | Category | Finding | Suggested fix |');
    expect(byName.explore?.maxTurns).toBe(40);
  });
});

describe('parsed while bundling', () => {
  test('the bundled skills and agents are what parsing their files gives now', async () => {
    const root = join(import.meta.dir, '../..');
    const skills = await Promise.all(
      ['code-review', 'commit', 'explain', 'write-tests'].map(async (folderName) =>
        parseSkillFile(await Bun.file(join(root, 'skills', folderName, 'SKILL.md')).text(), { file: `<bundled>/skills/${folderName}/SKILL.md`, folderName, source: 'bundled' }),
      ),
    );
    const agents = await Promise.all(
      ['general', 'explore', 'review'].map(async (baseName) =>
        parseAgentFile(await Bun.file(join(root, 'src/skills/bundled-agents', `${baseName}.md`)).text(), { file: `<bundled>/agents/${baseName}.md`, baseName, source: 'bundled' }),
      ),
    );
    expect(bundledSkills()).toEqual(skills);
    expect(bundledAgents()).toEqual(agents);
  });
});
