import { afterEach, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { createSkillTool } from '../../src/agent/index.ts';
import { buildSystemPrompt } from '../../src/agent/system-prompt.ts';
import { loadSkills } from '../../src/skills/index.ts';
import { toolInputJsonSchema, ToolRegistry } from '../../src/tools/index.ts';
import { write } from '../config/tmp.ts';
import { makeContext, removeDir, runTool, tempDir } from '../tools/tool-context.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) removeDir(d);
});

function setup() {
  const base = tempDir();
  dirs.push(base);
  const projectRoot = join(base, 'proj');
  const dir = join(projectRoot, '.moat', 'skills', 'deploy');
  write(
    join(dir, 'SKILL.md'),
    '---\ndescription: Deploys a service\nwhen_to_use: when asked to ship\nallowed-tools: Read, Bash(./deploy.sh:*)\nargs:\n  - name: service\n    required: true\n  - name: env\n---\nDeploy ${service} to ${env}; see CHECKLIST.md.\n',
  );
  write(join(dir, 'CHECKLIST.md'), '1. run tests');
  const skills = loadSkills({ projectRoot, configDir: join(base, 'cfg') }).items;
  const tool = createSkillTool(skills);
  return { tool, skills, dir, ctx: makeContext(projectRoot) };
}

describe('skill tool', () => {
  test('its JSON schema is a plain object (the API wants type: object at the top)', () => {
    const { tool } = setup();
    expect(tool.effect).toBe('read');
    expect(toolInputJsonSchema(tool)).toMatchObject({
      type: 'object',
      properties: { name: { type: 'string' }, args: { type: 'string' }, file: { type: 'string' }, list: { type: 'boolean' } },
      additionalProperties: false,
    });
    expect(new ToolRegistry([tool]).specs()[0]!.name).toBe('Skill');
  });

  test('runs a skill: the expanded body, its folder and files, and its tools as advice', async () => {
    const { tool, ctx, dir } = setup();
    const r = await runTool(tool, { name: 'deploy', args: 'api "eu west"' }, ctx);
    expect(r.isError).toBeUndefined();
    expect(r.content).toBe(
      [
        '<skill name="deploy">',
        `Base directory for this skill: ${dir}`,
        'Its other files (read one with the Skill tool: {"name": "deploy", "file": "<path>"}): CHECKLIST.md',
        'While following this skill, use only these tools: Read, Bash(./deploy.sh:*). (moat does not enforce this list; keeping to it is up to you.)',
        '',
        'Deploy api to eu west; see CHECKLIST.md.',
        '</skill>',
      ].join('\n'),
    );
    expect(tool.intent({ name: 'deploy', args: 'api' }, ctx)).toEqual({ ruleName: 'Skill', subject: 'deploy', paths: [], summary: 'Use skill deploy api' });
  });

  test("reads a file of the skill's folder, and refuses one outside it", async () => {
    const { tool, ctx } = setup();
    expect(await runTool(tool, { name: 'deploy', file: 'CHECKLIST.md' }, ctx)).toMatchObject({ content: '1. run tests' });
    const out = await runTool(tool, { name: 'deploy', file: '../../../../etc/passwd' }, ctx);
    expect(out.isError).toBe(true);
  });

  test('list: every skill with its description, when to use it, and usage', async () => {
    const { tool, ctx } = setup();
    const r = await runTool(tool, { list: true }, ctx);
    expect(typeof r.content === 'string' && r.content.split('\n')).toEqual([
      'Available skills:',
      expect.stringMatching(/^- code-review: Reviews the staged changes.* Usage: \/code-review \[target\]$/),
      expect.stringMatching(/^- commit: .* Usage: \/commit \[notes on the change\] \[--commit\]$/),
      '- deploy: Deploys a service (When to use: when asked to ship) Usage: /deploy <service> [env]',
      expect.stringMatching(/^- explain: .* Usage: \/explain <target>$/),
      expect.stringMatching(/^- write-tests: .* Usage: \/write-tests <file> \[focus\]$/),
    ]);
  });

  test('mistakes come back as instructions: unknown name, missing argument, no name at all', async () => {
    const { tool, ctx } = setup();
    const unknown = await runTool(tool, { name: 'deploi' }, ctx);
    expect(unknown).toMatchObject({ isError: true });
    expect(unknown.content).toBe('There is no skill named "deploi". Available skills: code-review, commit, deploy, explain, write-tests. Call skill with one of these names, or {"list": true} for their descriptions.');
    const missing = await runTool(tool, { name: 'deploy' }, ctx);
    expect(missing).toEqual({ isError: true, content: '/deploy needs <service>: usage: /deploy <service> [env]. Call skill again with the missing arguments in "args".' });
    const empty = await runTool(tool, {}, ctx);
    expect(empty.isError).toBe(true);
    expect(empty.content).toContain('Give "name" (the skill to run), or "list": true');
  });
});

describe('system prompt listing', () => {
  test('skills show name, description and when to use, never the body; agents show name and description', () => {
    const { skills } = setup();
    const prompt = buildSystemPrompt({
      cwd: '/w',
      addDirs: [],
      git: undefined,
      skills: skills.map((s) => ({ name: s.name, description: s.description, whenToUse: s.whenToUse })),
      agents: [{ name: 'explore', description: 'Fast read-only search' }],
      append: 'LAST',
    });
    expect(prompt).toContain('# Skills\n');
    expect(prompt).toContain('- deploy: Deploys a service (When to use: when asked to ship)\n');
    expect(prompt).not.toContain('Deploy ${service}');
    expect(prompt).toContain('# Agents\nSub-agents you can hand a self-contained task to with the `Task` tool (choose by its description):\n- explore: Fast read-only search');
    expect(prompt.endsWith('LAST')).toBe(true);
    const bare = buildSystemPrompt({ cwd: '/w', addDirs: [], git: undefined });
    expect(bare).not.toContain('# Skills');
    expect(bare).not.toContain('# Agents');
  });
});
