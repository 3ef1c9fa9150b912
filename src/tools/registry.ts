import { z } from 'zod';
import type { ToolSpec } from '../providers/index.ts';
import { MoatError } from '../util/index.ts';
import type { AnyTool } from './types.ts';

/** zod writes JavaScript's safe-integer range onto every `.int()`: noise for the model, so it goes. */
const SAFE_INT_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

function dropNoise(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropNoise);
  if (typeof node !== 'object' || node === null) return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'maximum' || key === 'minimum') && typeof value === 'number' && SAFE_INT_BOUNDS.has(value)) continue;
    out[key] = dropNoise(value);
  }
  return out;
}

/**
 * The JSON Schema the model sees for a tool's input, derived from its zod
 * schema (the single source), as the input side (defaults make fields optional).
 */
export function toolInputJsonSchema(tool: AnyTool): Record<string, unknown> {
  const { $schema: _dropped, ...schema } = z.toJSONSchema(tool.inputSchema, { io: 'input' }) as Record<string, unknown>;
  return dropNoise(schema) as Record<string, unknown>;
}

/** The tools of one session, by name, with their provider specs computed once. */
export class ToolRegistry {
  private readonly byName = new Map<string, AnyTool>();
  private readonly specCache = new Map<string, ToolSpec>();

  constructor(tools: readonly AnyTool[]) {
    for (const tool of tools) {
      // Two tools with one name would make the model's calls ambiguous: a wiring bug, not a user error.
      if (this.byName.has(tool.name)) throw new Error(`duplicate tool name: ${tool.name}`);
      this.byName.set(tool.name, tool);
    }
  }

  get(name: string): AnyTool | undefined {
    return this.byName.get(name);
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  list(): AnyTool[] {
    return [...this.byName.values()];
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  /** Specs for the named tools (all tools when omitted), in the order given. */
  specs(names?: readonly string[]): ToolSpec[] {
    const wanted = names ?? this.names();
    const unknown = wanted.filter((n) => !this.byName.has(n));
    if (unknown.length > 0) {
      throw new MoatError('usage', `Unknown tool${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Available: ${this.names().join(', ')}.`);
    }
    return wanted.map((n) => this.spec(n));
  }

  private spec(name: string): ToolSpec {
    const cached = this.specCache.get(name);
    if (cached !== undefined) return cached;
    const tool = this.byName.get(name) as AnyTool;
    const spec: ToolSpec = { name: tool.name, description: tool.description, inputSchema: toolInputJsonSchema(tool) };
    this.specCache.set(name, spec);
    return spec;
  }
}
