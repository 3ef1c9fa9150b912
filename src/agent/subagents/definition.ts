/** Sub-agent definitions, model aliases, and mapping Claude Code tool names onto the parent's tools. */
import type { PermissionMode } from '../../contracts/index.ts';
import type { AgentDefinition } from '../../skills/index.ts';
import type { AnyTool } from '../../tools/index.ts';


/**
 * A named sub-agent definition (`general`, `explore`, `review`, files in
 * `.moat/agents/`, …) as the skills loader reads it, minus where it came from:
 * the part the `task` tool needs.
 */
export type SubagentDefinition = Omit<AgentDefinition, 'source' | 'file'>;

/** Injected by the CLI (skills' loader); absent means only the built-in general-purpose behaviour. */
export interface AgentCatalog {
  get(name: string): SubagentDefinition | undefined;
  list(): SubagentDefinition[];
}

export const TASK_TOOL_NAMES = ['Task', 'TaskStatus', 'TaskResult'] as const;

// dontAsk sits below default: it never grants what default would have to ask for.
const MODE_RANK: Record<PermissionMode, number> = { plan: 0, dontAsk: 1, default: 2, acceptEdits: 3, bypassPermissions: 4 };

/** A definition may ask for a stricter mode than the parent's, never a looser one. */
export function clampMode(parent: PermissionMode, wanted: PermissionMode | undefined): PermissionMode {
  return wanted !== undefined && MODE_RANK[wanted] < MODE_RANK[parent] ? wanted : parent;
}

const MODEL_ALIASES: Record<string, string> = {
  sonnet: 'claude-sonnet-4-5',
  haiku: 'claude-haiku-4-5',
  opus: 'claude-opus-4-5',
};

export function resolveModel(parent: string, wanted: string | undefined): string {
  if (wanted === undefined || wanted === '' || wanted === 'inherit') return parent;
  return MODEL_ALIASES[wanted.toLowerCase()] ?? wanted;
}

/** Claude Code's tool names, for definitions written for it. */
const CLAUDE_NAMES: Record<string, string> = { agent: 'task', multiedit: 'edit' };

function key(name: string): string {
  const bare = name.replace(/\(.*$/s, '').trim().toLowerCase();
  const compact = bare.replace(/[^a-z0-9]/g, '');
  return CLAUDE_NAMES[compact] ?? compact;
}

/**
 * Maps names as written onto the parent's tools. A name the parent does not
 * have comes back in `unknown`: a sub-agent never gets a tool its parent lacks.
 */
export function pickTools(requested: readonly string[], available: readonly AnyTool[]): { tools: AnyTool[]; unknown: string[] } {
  const byKey = new Map(available.map((t) => [key(t.name), t]));
  const tools: AnyTool[] = [];
  const unknown: string[] = [];
  for (const raw of requested) {
    const tool = byKey.get(key(raw));
    if (!tool) unknown.push(raw);
    else if (!tools.includes(tool)) tools.push(tool);
  }
  return { tools, unknown };
}

export function isTaskTool(name: string): boolean {
  return (TASK_TOOL_NAMES as readonly string[]).includes(name);
}
