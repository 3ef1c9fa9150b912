/** Sub-agent definitions given as JSON (`--agents`, an SDK's initialize), in Claude Code's shape. */
import { AGENT_PERMISSION_MODES, formatIssue } from '../contracts/index.ts';
import { z } from 'zod';
import type { SubagentDefinition } from '../agent/index.ts';
import { MoatError, once } from '../util/index.ts';

// Built on first use: only --agents and an SDK's initialize read agent JSON.
const AgentJson = () =>
  z.strictObject({
    description: z.string().min(1),
    prompt: z.string().min(1),
    tools: z.array(z.string()).optional(),
    disallowedTools: z.array(z.string()).optional(),
    model: z.string().optional(),
    maxTurns: z.number().int().positive().optional(),
    permissionMode: z.enum(AGENT_PERMISSION_MODES).optional(),
  });

export const AgentsJson = once(() => z.record(z.string().regex(/^[A-Za-z0-9_.-]+$/, 'an agent name is letters, digits, . _ -'), AgentJson()));

/** `{"name": {"description", "prompt", "tools", "model"}}` → definitions; a mistake is one usage line naming `where` and the key. */
export function agentDefinitions(value: unknown, where: string): SubagentDefinition[] {
  const parsed = AgentsJson().safeParse(value);
  if (!parsed.success) {
    throw new MoatError('usage', `${where}: invalid agent definitions: ${formatIssue(parsed.error.issues[0], 'not an object')}`);
  }
  return Object.entries(parsed.data).map(([name, a]) => ({
    name,
    description: a.description,
    systemPrompt: a.prompt,
    ...(a.tools === undefined ? {} : { tools: a.tools }),
    ...(a.disallowedTools === undefined ? {} : { disallowedTools: a.disallowedTools }),
    ...(a.model === undefined ? {} : { model: a.model }),
    ...(a.maxTurns === undefined ? {} : { maxTurns: a.maxTurns }),
    ...(a.permissionMode === undefined ? {} : { permissionMode: a.permissionMode }),
  }));
}

/** `--agents <json>`: JSON text. */
export function agentsFlag(text: string | undefined): SubagentDefinition[] {
  if (text === undefined) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new MoatError('usage', `--agents: not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  return agentDefinitions(value, '--agents');
}
