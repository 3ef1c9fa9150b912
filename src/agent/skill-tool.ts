/** The Skill tool: runs a loaded skill and returns its expanded instructions. */
import { readSkillFile, renderSkillInvocation, skillUsage, SkillUsageError, type Skill } from '../skills/index.ts';
import { defineTool, ToolError, type AnyTool, type ToolResult } from '../tools/index.ts';
import { inputJsonSchemaOf } from '../util/index.ts';
import { skillToolInput } from './skill-tool-input.ts';
import description from './skill-tool.md' with { type: 'text' };

function listing(skills: readonly Skill[]): string {
  if (skills.length === 0) return 'No skills are available.';
  const lines = skills.map((s) => {
    const when = s.whenToUse ? ` (When to use: ${s.whenToUse})` : '';
    return `- ${s.name}: ${s.description}${when} Usage: ${skillUsage(s)}`;
  });
  return `Available skills:\n${lines.join('\n')}`;
}

function find(skills: readonly Skill[], name: string): Skill {
  const skill = skills.find((s) => s.name === name);
  if (skill) return skill;
  const names = skills.map((s) => s.name).join(', ') || '(none)';
  throw new ToolError(`There is no skill named "${name}". Available skills: ${names}. Call skill with one of these names, or {"list": true} for their descriptions.`);
}

/**
 * The `skill` tool over a fixed set of loaded skills. It lives in the agent
 * layer because tools may not import `skills/`. `allowed-tools` is passed to
 * the model as an instruction; the permission system is unchanged by it.
 */
export function createSkillTool(skills: readonly Skill[]): AnyTool {
  return defineTool({
    name: 'Skill',
    description,
    get inputSchema() {
      return skillToolInput();
    },
    jsonSchema: inputJsonSchemaOf('agent/skill-tool-input.ts', 'skillToolInput'),
    effect: 'read',
    intent(input) {
      if (input.list === true || input.name === undefined) return { ruleName: 'Skill', paths: [], summary: 'List skills' };
      const summary = input.file ? `Read ${input.file} of skill ${input.name}` : `Use skill ${input.name}${input.args ? ` ${input.args}` : ''}`;
      return { ruleName: 'Skill', subject: input.name, paths: [], summary };
    },
    async execute(input): Promise<ToolResult> {
      if (input.list === true || input.name === undefined) {
        const text = listing(skills);
        return { content: text, display: { type: 'text', text: `${skills.length} skills` } };
      }
      const skill = find(skills, input.name);
      if (input.file !== undefined) {
        const read = readSkillFile(skill, input.file);
        if (!read.ok) throw new ToolError(read.reason);
        return { content: read.text, display: { type: 'text', text: `Read ${input.file} of skill ${skill.name}` } };
      }
      try {
        const text = renderSkillInvocation(skill, input.args ?? '');
        return { content: text, display: { type: 'text', text: `Skill ${skill.name}` } };
      } catch (e) {
        if (e instanceof SkillUsageError) throw new ToolError(`${e.message}. Call skill again with the missing arguments in "args".`);
        throw e;
      }
    },
  });
}
