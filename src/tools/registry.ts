/** The tool registry: specs for the model, lookup, and ToolSearch beyond 20 tools. */
import type { ToolSpec } from '../providers/index.ts';
import { inputJsonSchema, MoatError } from '../util/index.ts';
import { TOOL_SEARCH_NAME, toolSearchTool } from './tool-search.ts';
import type { AnyTool } from './types.ts';

/**
 * The JSON Schema the model sees for a tool's input, derived from its zod
 * schema (the single source), as the input side (defaults make fields optional).
 * A tool that carries its own JSON Schema is sent that schema as it is: a
 * WebAssembly tool's is parsed from its help text, and moat's own tools carry
 * this conversion made while bundling (inputJsonSchemaOf in util/json-schema.ts), so start-up
 * converts none.
 */
export function toolInputJsonSchema(tool: AnyTool): Record<string, unknown> {
  return tool.jsonSchema ?? inputJsonSchema(tool.inputSchema);
}

/**
 * Tools that come and go while moat runs (drop-in WebAssembly tools, watched
 * on disk). The registry asks again on every lookup, so a change is visible
 * from the next turn without rebuilding anything.
 */
export interface ToolSource {
  tools(): readonly AnyTool[];
  /** What the source's providers say about using their tools (MCP servers' `instructions`), for the system prompt. */
  instructions?(): readonly SourceInstructions[];
}

/** One provider's instructions: who gave them, and the text. */
export interface SourceInstructions {
  from: string;
  text: string;
}

/** Past this many tools, the model sees the core tools plus ToolSearch instead of every drop-in (WebAssembly) tool. */
export const TOOL_SEARCH_THRESHOLD = 20;

/** MCP tools go behind ToolSearch only past this share of the context window (Claude Code's rule). */
export const MCP_DEFER_SHARE = 0.1;

/** The share of a 200k-token window: the budget when the caller does not know the model's. */
const DEFAULT_MCP_BUDGET_TOKENS = 20_000;

const isMcp = (t: AnyTool) => t.name.startsWith('mcp__');

/**
 * The tools of one session, by name. Its own tools (the built-ins, the skill
 * and task tools) are the core; tools from sources are looked up live.
 * `extend` makes a session's registry on top of the shared one: it adds the
 * session's own tools and still sees the shared sources as they change.
 */
export class ToolRegistry {
  private readonly own = new Map<string, AnyTool>();
  private readonly sources: ToolSource[] = [];
  private readonly parent: ToolRegistry | undefined;
  /** Specs per tool object: a replaced drop-in tool (same name, new object) gets a fresh spec. */
  private readonly specCache = new WeakMap<AnyTool, ToolSpec>();
  /** ToolSearch: what each session has found (kept by the root registry). */
  private readonly found = new Map<string, Set<string>>();
  private search: AnyTool | undefined;
  private searchKey = '';

  constructor(tools: readonly AnyTool[], parent?: ToolRegistry) {
    this.parent = parent;
    for (const tool of tools) {
      // Two tools with one name would make the model's calls ambiguous: a wiring bug, not a user error.
      if (this.own.has(tool.name) || parent?.coreTool(tool.name) !== undefined) throw new Error(`duplicate tool name: ${tool.name}`);
      this.own.set(tool.name, tool);
    }
  }

  /** A registry with `tools` added to this one's core, following this one's sources live. */
  extend(tools: readonly AnyTool[]): ToolRegistry {
    return new ToolRegistry(tools, this);
  }

  addSource(source: ToolSource): void {
    this.sources.push(source);
  }

  private coreTool(name: string): AnyTool | undefined {
    return this.own.get(name) ?? this.parent?.coreTool(name);
  }

  /** Core tools: the built-ins and the session's own tools, parents' first. */
  core(): AnyTool[] {
    return [...(this.parent?.core() ?? []), ...this.own.values()];
  }

  /** Every source's instructions (parents' first), read live: a server that connects later adds its own. */
  instructions(): SourceInstructions[] {
    return [...(this.parent?.instructions() ?? []), ...this.sources.flatMap((s) => s.instructions?.() ?? [])];
  }

  /** Tools from sources, minus any whose name a core tool or an earlier source already has. */
  private extra(core: ReadonlySet<string>): AnyTool[] {
    const out = this.parent?.extra(core) ?? [];
    const seen = new Set(out.map((t) => t.name));
    for (const source of this.sources) {
      for (const tool of source.tools()) {
        if (core.has(tool.name) || seen.has(tool.name)) continue;
        seen.add(tool.name);
        out.push(tool);
      }
    }
    return out;
  }

  get(name: string): AnyTool | undefined {
    const core = this.coreTool(name);
    if (core !== undefined) return core;
    // The one the last offered list had (it names what was deferred then).
    if (name === TOOL_SEARCH_NAME) return this.root().search ?? this.searchTool(this.extra(new Set(this.core().map((t) => t.name))).map((t) => t.name));
    return this.list().find((t) => t.name === name);
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  list(): AnyTool[] {
    const core = this.core();
    return [...core, ...this.extra(new Set(core.map((t) => t.name)))];
  }

  names(): string[] {
    return this.list().map((t) => t.name);
  }

  /**
   * What a session offers the model: the core tools, and the rest unless
   * they would crowd it. Drop-in tools go behind ToolSearch once the core
   * and they pass TOOL_SEARCH_THRESHOLD; MCP tools once their schemas would
   * take more than `mcpBudgetTokens` (a share of the model's context), so a
   * three-tool server is offered directly. What the session found with
   * ToolSearch is offered from then on; ToolSearch names every tool it can load.
   */
  offered(sessionId: string, mcpBudgetTokens: number = DEFAULT_MCP_BUDGET_TOKENS): AnyTool[] {
    const core = this.core();
    const extra = this.extra(new Set(core.map((t) => t.name)));
    if (this.coreTool(TOOL_SEARCH_NAME) !== undefined) return [...core, ...extra];
    const dropIns = extra.filter((t) => !isMcp(t));
    const deferDropIns = core.length + dropIns.length > TOOL_SEARCH_THRESHOLD;
    const deferMcp = this.schemaTokens(extra.filter(isMcp)) > mcpBudgetTokens;
    const deferred = (t: AnyTool) => (isMcp(t) ? deferMcp : deferDropIns);
    if (!extra.some(deferred)) return [...core, ...extra];
    const found = this.root().found.get(sessionId) ?? new Set<string>();
    return [...core, this.searchTool(extra.filter(deferred).map((t) => t.name)), ...extra.filter((t) => !deferred(t) || found.has(t.name))];
  }

  /** About how many tokens these tools' specs take in a request (4 characters a token). */
  private schemaTokens(tools: readonly AnyTool[]): number {
    return tools.reduce((sum, t) => sum + JSON.stringify(this.spec(t)).length / 4, 0);
  }

  private root(): ToolRegistry {
    return this.parent?.root() ?? this;
  }

  /** ToolSearch, rebuilt when the set of tools it can load changes (its description names them: `names`, the deferred ones). */
  private searchTool(names: readonly string[]): AnyTool {
    const root = this.root();
    const candidates = (): AnyTool[] => root.extra(new Set(root.core().map((t) => t.name)));
    const key = names.join(',');
    if (root.search === undefined || root.searchKey !== key) {
      root.searchKey = key;
      root.search = toolSearchTool(
        {
          candidates,
          remember: (sessionId, found) => {
            const set = root.found.get(sessionId) ?? new Set<string>();
            for (const n of found) set.add(n);
            root.found.set(sessionId, set);
          },
        },
        names,
      );
    }
    return root.search;
  }

  /** Specs for the named tools (all tools when omitted), in the order given. */
  specs(names?: readonly string[]): ToolSpec[] {
    const wanted = names ?? this.names();
    const tools = wanted.map((n) => this.get(n));
    const unknown = wanted.filter((_, i) => tools[i] === undefined);
    if (unknown.length > 0) {
      throw new MoatError('usage', `Unknown tool${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Available: ${this.names().join(', ')}.`);
    }
    return tools.map((t) => this.spec(t as AnyTool));
  }

  private spec(tool: AnyTool): ToolSpec {
    const cached = this.specCache.get(tool);
    if (cached !== undefined) return cached;
    const spec: ToolSpec = { name: tool.name, description: tool.description, inputSchema: toolInputJsonSchema(tool) };
    this.specCache.set(tool, spec);
    return spec;
  }
}
