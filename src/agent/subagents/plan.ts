/** Turns a Task call's input into a sub-agent plan: tools, model, mode, isolation. */
import { ToolError, type AnyTool } from '../../tools/index.ts';
import type { AgentSettings } from '../settings.ts';
import { clampMode, isTaskTool, pickTools, resolveModel, type SubagentDefinition } from './definition.ts';
import type { SubagentHost } from './host.ts';
import subagentPrompt from './prompts/subagent.md' with { type: 'text' };

export const DEFAULT_SUBAGENT_MAX_TURNS = 10;

/** The `task` tool's input, as the model gives it. */
export interface TaskInput {
  description: string;
  prompt: string;
  agent?: string;
  subagent_type?: string;
  tools?: string[];
  max_turns?: number;
  model?: string;
  isolation?: 'worktree' | 'none';
  base?: 'head' | 'working-tree';
  run_in_background?: boolean;
}

/** Everything decided before a sub-agent starts. */
export interface SubagentPlan {
  description: string;
  prompt: string;
  agentName?: string;
  /** Offered to the sub-agent, task tools excluded. */
  tools: AnyTool[];
  allowSubagents: boolean;
  /** cwd, addDirs and projectRoot are the parent's; a worktree replaces them when it exists. */
  settings: AgentSettings;
  isolation: 'worktree' | 'none';
  /** Asked for by the model or the definition, rather than the default. */
  isolationExplicit: boolean;
  base: 'head' | 'working-tree';
  background: boolean;
  notes: string[];
}

function resolveDefinition(host: SubagentHost, name: string | undefined): SubagentDefinition | undefined {
  if (name === undefined) return undefined;
  const def = host.support.catalog?.get(name);
  if (def) return def;
  const known = host.support.catalog?.list().map((d) => d.name) ?? [];
  throw new ToolError(
    `There is no agent named "${name}". ${known.length > 0 ? `Available agents: ${known.join(', ')}.` : 'No named agents are defined.'} Leave agent out for a general-purpose sub-agent.`,
  );
}

/**
 * The sub-agent's tools: what it asked for (or its definition lists, or by
 * default the parent's tools without task), always a subset of the parent's.
 * Task tools only when listed explicitly and the depth limit allows.
 */
function resolveTools(host: SubagentHost, input: TaskInput, def: SubagentDefinition | undefined, notes: string[]): { tools: AnyTool[]; allowSubagents: boolean } {
  const parentTools = host.offeredTools();
  let tools: AnyTool[];
  if (input.tools !== undefined) {
    const picked = pickTools(input.tools, parentTools);
    if (picked.unknown.length > 0) {
      throw new ToolError(
        `tools: ${picked.unknown.join(', ')} ${picked.unknown.length > 1 ? 'are' : 'is'} not among your own tools (${parentTools.map((t) => t.name).join(', ')}). A sub-agent can only get tools you have.`,
      );
    }
    tools = picked.tools;
  } else if (def?.tools !== undefined) {
    const picked = pickTools(def.tools, parentTools);
    if (picked.unknown.length > 0) notes.push(`The agent definition lists tools you do not have, left out: ${picked.unknown.join(', ')}.`);
    tools = picked.tools;
  } else {
    tools = parentTools.filter((t) => !isTaskTool(t.name));
  }
  if (def?.disallowedTools !== undefined) {
    const banned = new Set(pickTools(def.disallowedTools, parentTools).tools);
    tools = tools.filter((t) => !banned.has(t));
  }
  const wantsTask = tools.some((t) => t.name === 'Task');
  const maxDepth = host.support.manager.maxDepth;
  const childDepth = host.depth + 1;
  if (wantsTask && childDepth >= maxDepth) {
    if (input.tools !== undefined) {
      throw new ToolError(
        `tools: task is not allowed here: sub-agents nest at most ${maxDepth} level${maxDepth === 1 ? '' : 's'} deep, and this sub-agent would already be at level ${childDepth}. Remove task from tools.`,
      );
    }
    notes.push(`The sub-agent cannot start sub-agents of its own (nesting limit ${maxDepth}).`);
  }
  return { tools: tools.filter((t) => !isTaskTool(t.name)), allowSubagents: wantsTask && childDepth < maxDepth };
}

/** The agent definition a Task call names, by either field; both naming different ones is the model's mistake to fix. */
function namedAgent(input: TaskInput): string | undefined {
  if (input.agent !== undefined && input.subagent_type !== undefined && input.agent !== input.subagent_type) {
    throw new ToolError(`agent "${input.agent}" and subagent_type "${input.subagent_type}" name different agents: give one of them.`);
  }
  return input.agent ?? input.subagent_type;
}

/** Decides tools, mode, model, isolation and prompt; throws a ToolError the model can act on. */
export function planSubagent(host: SubagentHost, input: TaskInput): SubagentPlan {
  const notes: string[] = [];
  const def = resolveDefinition(host, namedAgent(input));
  const { tools, allowSubagents } = resolveTools(host, input, def, notes);
  const parent = host.settings();
  const permissionMode = clampMode(parent.permissionMode, def?.permissionMode);
  const mayWrite = permissionMode !== 'plan' && tools.some((t) => t.effect !== 'read');
  const explicit = input.isolation ?? def?.isolation;
  const append = [parent.appendSystemPrompt, subagentPrompt.trim(), def?.systemPrompt.trim()].filter((s): s is string => s !== undefined && s !== '');
  const settings: AgentSettings = {
    ...parent,
    model: resolveModel(parent.model, input.model ?? def?.model),
    maxTurns: input.max_turns ?? def?.maxTurns ?? DEFAULT_SUBAGENT_MAX_TURNS,
    // The parent's budget covers the whole tree through the cost meter; no budget of its own.
    maxBudgetUsd: undefined,
    permissionMode,
    allow: [...parent.allow],
    deny: [...parent.deny],
    addDirs: [...parent.addDirs],
    appendSystemPrompt: append.join('\n\n'),
  };
  return {
    description: input.description,
    prompt: input.prompt,
    ...(def === undefined ? {} : { agentName: def.name }),
    tools,
    allowSubagents,
    settings,
    isolation: explicit ?? (mayWrite ? 'worktree' : 'none'),
    isolationExplicit: explicit !== undefined,
    base: input.base ?? 'head',
    background: input.run_in_background ?? false,
    notes,
  };
}
