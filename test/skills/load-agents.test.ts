import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { loadAgentDefinitions, type DefinitionRoots } from '../../src/skills/index.ts';
import { useTmp, write } from '../config/tmp.ts';

const tmp = useTmp();

function rootsIn(base: string): DefinitionRoots {
  return { projectRoot: join(base, 'proj'), configDir: join(base, 'config', 'moat'), home: join(base, 'home') };
}

describe('loadAgentDefinitions', () => {
  test('bundled: general (all tools), explore and review (read-only)', () => {
    const { items, issues } = loadAgentDefinitions(rootsIn(tmp()));
    expect(issues).toEqual([]);
    expect(items.map((a) => [a.name, a.source, a.tools ?? 'all'])).toEqual([
      ['explore', 'bundled', ['Read', 'Grep', 'Glob', 'LS']],
      ['general', 'bundled', 'all'],
      ['review', 'bundled', ['Read', 'Grep', 'Glob', 'LS']],
    ]);
    for (const a of items) expect(a.systemPrompt.length).toBeGreaterThan(200);
  });

  test('every field, in moat spelling with a YAML tool list', () => {
    const base = tmp();
    const r = rootsIn(base);
    const file = write(
      join(r.projectRoot, '.moat', 'agents', 'migrator.md'),
      '---\nname: migrator\ndescription: Writes database migrations\ntools:\n  - read\n  - edit\n  - bash\nmodel: claude-haiku-4-5\nmax_turns: 12\npermission_mode: acceptEdits\nisolation: worktree\n---\nYou write migrations.\n',
    );
    expect(loadAgentDefinitions(r).items.find((a) => a.name === 'migrator')).toEqual({
      name: 'migrator',
      description: 'Writes database migrations',
      tools: ['read', 'edit', 'bash'],
      model: 'claude-haiku-4-5',
      maxTurns: 12,
      permissionMode: 'acceptEdits',
      isolation: 'worktree',
      systemPrompt: 'You write migrations.',
      source: 'project',
      file,
    });
  });

  test("a Claude Code agent file loads: comma-separated tools, camelCase fields, 'inherit', colons in the description, extra fields", () => {
    const base = tmp();
    const r = rootsIn(base);
    write(
      join(r.projectRoot, '.claude', 'agents', 'code-reviewer.md'),
      [
        '---',
        'name: code-reviewer',
        'description: Use this agent when: the user finished a feature.\\n<example>user: review it</example>',
        'tools: Read, Grep, Glob, Bash',
        'model: inherit',
        'color: purple',
        'permissionMode: plan',
        'maxTurns: 5',
        'disallowedTools: Write',
        '---',
        'You are a senior reviewer.',
      ].join('\n'),
    );
    const agent = loadAgentDefinitions(r).items.find((a) => a.name === 'code-reviewer');
    expect(agent).toMatchObject({
      description: 'Use this agent when: the user finished a feature.\\n<example>user: review it</example>',
      tools: ['Read', 'Grep', 'Glob', 'Bash'],
      disallowedTools: ['Write'],
      permissionMode: 'plan',
      maxTurns: 5,
      systemPrompt: 'You are a senior reviewer.',
      source: 'project',
    });
    expect(agent?.model).toBeUndefined();
  });

  test('precedence: project .moat > project .claude > user > bundled; the name defaults to the file name', () => {
    const base = tmp();
    const r = rootsIn(base);
    const agent = (d: string) => `---\ndescription: ${d}\n---\nprompt ${d}\n`;
    write(join(r.home!, '.claude', 'agents', 'explore.md'), agent('home claude explore'));
    write(join(r.configDir, 'agents', 'explore.md'), agent('user explore'));
    write(join(r.configDir, 'agents', 'review.md'), agent('user review'));
    write(join(r.projectRoot, '.claude', 'agents', 'review.md'), agent('claude review'));
    write(join(r.projectRoot, '.claude', 'agents', 'general.md'), agent('claude general'));
    write(join(r.projectRoot, '.moat', 'agents', 'general.md'), agent('moat general'));
    const got = Object.fromEntries(loadAgentDefinitions(r).items.map((a) => [a.name, `${a.source}: ${a.description}`]));
    expect(got).toEqual({ explore: 'user: user explore', review: 'project: claude review', general: 'project: moat general' });
  });

  test('invalid frontmatter is reported with the file and field, and only that agent is skipped', () => {
    const base = tmp();
    const r = rootsIn(base);
    const dir = join(r.projectRoot, '.moat', 'agents');
    write(join(dir, 'ok.md'), '---\ndescription: fine\n---\nprompt\n');
    const turns = write(join(dir, 'turns.md'), '---\ndescription: d\nmax_turns: many\n---\nprompt\n');
    const mode = write(join(dir, 'mode.md'), '---\ndescription: d\npermission_mode: yolo\n---\nprompt\n');
    const iso = write(join(dir, 'iso.md'), '---\ndescription: d\nisolation: docker\n---\nprompt\n');
    const tools = write(join(dir, 'tools.md'), '---\ndescription: d\ntools: 42\n---\nprompt\n');
    const nodesc = write(join(dir, 'nodesc.md'), '---\nname: nodesc\n---\nprompt\n');
    write(join(dir, 'README.txt'), 'not an agent');
    const { items, issues } = loadAgentDefinitions(r);
    expect(items.filter((a) => a.source === 'project').map((a) => a.name)).toEqual(['ok']);
    expect(issues.map((i) => [i.file, i.field, i.skipped])).toEqual([
      [iso, 'isolation', true],
      [mode, 'permission_mode', true],
      [nodesc, 'description', true],
      [tools, 'tools', true],
      [turns, 'max_turns', true],
    ]);
    expect(issues.find((i) => i.file === mode)?.message).toBe('must be one of default, acceptEdits, plan, bypassPermissions');
  });
});
