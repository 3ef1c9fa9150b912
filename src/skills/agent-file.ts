/** Parses an agent definition file (moat's or Claude Code's). */
import { AGENT_PERMISSION_MODES } from '../contracts/index.ts';
import { z } from 'zod';
import { once } from '../util/index.ts';
import { DefinitionError } from './definition-error.ts';
import { parseFrontmatter } from './frontmatter.ts';
import { NAME_PATTERN, nameField, optionalText, requiredText, toolListField, validate } from './schema-helpers.ts';
import type { AgentDefinition, DefinitionSource } from './types.ts';

const agentSchema = once(() =>
  z.object({
    name: nameField().optional(),
    description: requiredText('when to use this agent (the model reads it to decide)'),
    tools: toolListField(),
    disallowed_tools: toolListField(),
    model: optionalText(),
    max_turns: z.number({ error: 'must be a whole number' }).int('must be a whole number').min(1, 'must be at least 1').optional(),
    permission_mode: z
      .enum(AGENT_PERMISSION_MODES, { error: `must be one of ${AGENT_PERMISSION_MODES.join(', ')}` })
      .optional(),
    isolation: z.enum(['none', 'worktree'], { error: 'must be none or worktree' }).optional(),
  }),
);

/** Claude Code spells these in camelCase; moat's documented spelling is snake_case. Both load. */
const CAMEL_ALIASES: Record<string, string> = {
  maxTurns: 'max_turns',
  permissionMode: 'permission_mode',
  disallowedTools: 'disallowed_tools',
};

function normaliseKeys(data: Record<string, unknown>): Record<string, unknown> {
  const out = { ...data };
  for (const [camel, snake] of Object.entries(CAMEL_ALIASES)) {
    if (camel in out && !(snake in out)) out[snake] = out[camel];
    delete out[camel];
  }
  return out;
}

export interface AgentFileOrigin {
  file: string;
  /** The file name without `.md`: the agent's name when the frontmatter has none. */
  baseName: string;
  source: DefinitionSource;
}

/** Parses one agent definition (Markdown with frontmatter). Throws DefinitionError naming the field at fault. */
export function parseAgentFile(text: string, origin: AgentFileOrigin): AgentDefinition {
  const { data, body } = parseFrontmatter(text);
  const fm = validate(agentSchema(), normaliseKeys(data));
  const name = fm.name ?? origin.baseName;
  if (!NAME_PATTERN.test(name)) {
    throw new DefinitionError(`no name given and the file name "${origin.baseName}" is not a valid agent name (lowercase letters, digits, "-", "_", ".")`, 'name');
  }
  if (body.trim() === '') throw new DefinitionError("the body (the agent's system prompt, after the frontmatter) is empty");
  return {
    name,
    description: fm.description,
    ...(fm.tools ? { tools: fm.tools } : {}),
    ...(fm.disallowed_tools ? { disallowedTools: fm.disallowed_tools } : {}),
    // `inherit` is Claude Code's explicit spelling of "no model of its own".
    ...(fm.model && fm.model !== 'inherit' ? { model: fm.model } : {}),
    ...(fm.max_turns !== undefined ? { maxTurns: fm.max_turns } : {}),
    ...(fm.permission_mode ? { permissionMode: fm.permission_mode } : {}),
    ...(fm.isolation ? { isolation: fm.isolation } : {}),
    systemPrompt: body.trim(),
    source: origin.source,
    file: origin.file,
  };
}

/** `code-reviewer.md` → `code-reviewer`. */
export function agentBaseName(fileName: string): string {
  return fileName.replace(/\.md$/i, '');
}
