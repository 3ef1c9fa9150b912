/** ToolSearch: finds tools to load when too many are installed to send them all. */
import { toolSearchInput } from './tool-search-input.ts';
import { defineTool, type AnyTool } from './types.ts';
import { inputJsonSchemaOf } from '../util/index.ts';

/**
 * ToolSearch: with many tools installed, sending every schema on every
 * request costs tokens and dilutes the model's choice. Past a threshold the
 * model gets the core tools plus this one; what it finds here is added to
 * the session's later requests.
 */

export const TOOL_SEARCH_NAME = 'ToolSearch';

export interface ToolSearchDeps {
  /** The tools that are not offered up front. */
  candidates(): AnyTool[];
  /** Adds found tools to the session's offered set. */
  remember(sessionId: string, names: readonly string[]): void;
}

const DESCRIPTION = `Find more tools. Only the core tools are loaded up front; many more (installed WebAssembly tools, MCP servers' tools) can be found here and then called like any other tool in your next step.

- "select:name" (or "select:a,b") loads tools by exact name.
- Anything else is a keyword search over tool names, keywords and descriptions, best matches first.

The tools found are available from your next request on, for the rest of the session.`;

function words(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/** Higher is better; 0 is no match. The name counts most, then keywords, then the description. */
export function searchScore(tool: AnyTool, query: string): number {
  const name = tool.name.toLowerCase();
  const nameWords = new Set(words(tool.name));
  const keywords = new Set((tool.keywords ?? []).flatMap(words));
  const description = new Set(words(tool.description));
  let score = 0;
  for (const w of words(query)) {
    if (w === name) score += 10;
    else if (nameWords.has(w)) score += 5;
    else if (name.includes(w)) score += 3;
    if (keywords.has(w)) score += 2;
    if (description.has(w)) score += 1;
  }
  return score;
}

export function searchTools(candidates: readonly AnyTool[], query: string, max: number): AnyTool[] {
  const q = query.trim();
  if (q.toLowerCase().startsWith('select:')) {
    const names = q.slice('select:'.length).split(',').map((n) => n.trim()).filter((n) => n !== '');
    return names.flatMap((n) => candidates.filter((t) => t.name === n));
  }
  return candidates
    .map((tool) => ({ tool, score: searchScore(tool, q) }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.tool.name.localeCompare(b.tool.name))
    .slice(0, max)
    .map((s) => s.tool);
}

function firstLine(s: string): string {
  return (s.split('\n').find((l) => l.trim() !== '') ?? '').trim();
}

/** `names`: every tool it can load, all listed in its description so the model knows what to ask for. */
export function toolSearchTool(deps: ToolSearchDeps, names: readonly string[] = []): AnyTool {
  return defineTool({
    name: TOOL_SEARCH_NAME,
    description: names.length === 0 ? DESCRIPTION : `${DESCRIPTION}\n\nTools that can be loaded: ${names.join(', ')}.`,
    get inputSchema() {
      return toolSearchInput();
    },
    jsonSchema: inputJsonSchemaOf('tools/tool-search-input.ts', 'toolSearchInput'),
    effect: 'read',
    intent: (input) => ({ ruleName: 'ToolSearch', subject: input.query, paths: [], summary: `search tools: ${input.query}` }),
    execute: async (input, ctx) => {
      const all = deps.candidates();
      const hits = searchTools(all, input.query, input.max_results);
      if (hits.length === 0) {
        return { content: `No tool matches "${input.query}" among ${all.length} tools. Try other keywords, or select:name with an exact name.` };
      }
      deps.remember(ctx.sessionId, hits.map((t) => t.name));
      const lines = hits.map((t) => `- ${t.name}: ${firstLine(t.description)}`);
      return {
        content: `Found ${hits.length} tool${hits.length === 1 ? '' : 's'}; ${hits.length === 1 ? 'it is' : 'they are'} available from your next step:\n${lines.join('\n')}`,
        display: { type: 'text', text: hits.map((t) => t.name).join(', ') },
      };
    },
  }) as unknown as AnyTool;
}
