import { describe, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { memoryFiles } from '../../src/agent/memory-files.ts';
import { buildSystemPrompt } from '../../src/agent/system-prompt.ts';
import { tempDir } from '../support/temp.ts';

describe('system prompt', () => {
  test('tells folder, platform, date, git facts, and includes AGENTS.md/CLAUDE.md from root down to cwd', () => {
    const root = tempDir('moat-sp-');
    const sub = join(root, 'pkg', 'app');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(root, 'AGENTS.md'), 'root rule');
    writeFileSync(join(root, 'pkg', 'CLAUDE.md'), 'pkg rule');
    writeFileSync(join(sub, 'AGENTS.md'), 'app rule');
    expect(memoryFiles({ cwd: sub, gitRoot: root, roots: [] }).map((m) => m.text)).toEqual(['root rule', 'pkg rule', 'app rule']);

    const prompt = buildSystemPrompt({
      cwd: sub,
      addDirs: ['/extra'],
      git: { root, branch: 'main', status: ' M a.ts' },
      platform: 'linux',
      now: new Date('2026-11-22T10:00:00Z'),
      append: 'APPENDED',
    });
    expect(prompt).toContain(`Working folder: ${sub}`);
    expect(prompt).toContain('Additional folder: /extra');
    expect(prompt).toContain('Platform: linux');
    expect(prompt).toContain("Today's date: 2026-11-22");
    expect(prompt).toContain('branch main');
    expect(prompt).toContain(' M a.ts');
    expect(prompt.indexOf('root rule')).toBeLessThan(prompt.indexOf('app rule'));
    expect(prompt.endsWith('APPENDED')).toBe(true);
  });

  test("a program's own system prompt gets the environment beside it, not the skills and agents lists; no sources, no instruction files", () => {
    const dir = tempDir('moat-sp-');
    writeFileSync(join(dir, 'CLAUDE.md'), 'REPO RULE');
    const base = { cwd: dir, addDirs: [], git: undefined, skills: [{ name: 'deploy', description: 'ships it' }], agents: [{ name: 'helper', description: 'helps' }] };
    const own = buildSystemPrompt({ ...base, override: 'ONLY THIS', sources: [] });
    expect(own).toStartWith('ONLY THIS\n\n# Environment\n');
    for (const absent of ['REPO RULE', '# Skills', '# Agents']) expect(own).not.toContain(absent);
    // The default sources keep the project's instructions (Claude Code sends them too).
    expect(buildSystemPrompt({ ...base, override: 'ONLY THIS' })).toContain('REPO RULE');
    const builtIn = buildSystemPrompt(base);
    for (const present of ['REPO RULE', '# Skills', '# Agents']) expect(builtIn).toContain(present);
  });

  test('outside git: says so; --system-prompt replaces the built-in instructions', () => {
    const dir = tempDir('moat-sp-');
    const p = buildSystemPrompt({ cwd: dir, addDirs: [], git: undefined, override: 'ONLY THIS' });
    expect(p.startsWith('ONLY THIS')).toBe(true);
    expect(p).toContain('Git repository: no');
    expect(p).not.toContain('You are moat');
  });
});
