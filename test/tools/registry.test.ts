import { describe, expect, test } from 'bun:test';
import { z } from 'zod';
import { builtinTools, defineTool, ToolRegistry, type AnyTool } from '../../src/tools/index.ts';
import { makeContext, runTool } from './tool-context.ts';
import { MoatError } from '../../src/util/index.ts';

const echo = defineTool({
  name: 'echo',
  description: 'Echo the text.',
  inputSchema: z.strictObject({ text: z.string(), times: z.number().int().min(1).default(1) }),
  effect: 'read',
  intent: () => ({ ruleName: 'Echo', paths: [], summary: 'echo' }),
  execute: async (input) => ({ content: input.text.repeat(input.times) }),
});

test('get, list and specs with the JSON Schema from zod (input side, no $schema, no safe-int noise)', () => {
  const registry = new ToolRegistry([echo as AnyTool]);
  expect(registry.get('echo')?.name).toBe('echo');
  expect(registry.get('nope')).toBeUndefined();
  expect(registry.list().map((t) => t.name)).toEqual(['echo']);
  expect(registry.specs()).toEqual([
    {
      name: 'echo',
      description: 'Echo the text.',
      inputSchema: {
        type: 'object',
        properties: { text: { type: 'string' }, times: { type: 'integer', minimum: 1, default: 1 } },
        required: ['text'],
        additionalProperties: false,
      },
    },
  ]);
  // Cached: the same object each time.
  expect(registry.specs(['echo'])[0]).toBe(registry.specs()[0] as never);
});

test('specs keeps the requested order; unknown names are a user error', () => {
  const registry = new ToolRegistry(builtinTools());
  expect(registry.specs(['Write', 'Read']).map((s) => s.name)).toEqual(['Write', 'Read']);
  expect(() => registry.specs(['Read', 'teleport'])).toThrow(new MoatError('usage', `Unknown tool: teleport. Available: ${registry.list().map((t) => t.name).join(', ')}.`));
});

test('duplicate names are refused', () => {
  expect(() => new ToolRegistry([echo as AnyTool, echo as AnyTool])).toThrow('duplicate tool name: echo');
});

test('the built-ins', () => {
  expect(new ToolRegistry(builtinTools()).list().map((t) => [t.name, t.effect])).toEqual([
    ['Bash', 'execute'],
    ['Glob', 'read'],
    ['Grep', 'read'],
    ['LS', 'read'],
    ['Read', 'read'],
    ['Edit', 'write'],
    ['Write', 'write'],
    ['TodoWrite', 'read'],
    ['WebFetch', 'network'],
    ['HttpRequest', 'network'],
  ]);
});

describe('sources, extend and tool_search', () => {
  const make = (name: string, description = `The ${name} tool.`, keywords: string[] = []): AnyTool =>
    ({ ...echo, name, description, keywords }) as AnyTool;

  test('a source is looked up live; core names win over it; extend follows the base', () => {
    let dynamic: AnyTool[] = [make('alpha')];
    const base = new ToolRegistry([echo as AnyTool]);
    base.addSource({ tools: () => dynamic });
    const session = base.extend([make('task')]);
    expect(session.names()).toEqual(['echo', 'task', 'alpha']);
    dynamic = [make('echo'), make('beta')];
    expect(session.names()).toEqual(['echo', 'task', 'beta']);
    expect(session.get('echo')).toBe(echo as AnyTool);
    expect(session.get('alpha')).toBeUndefined();
    expect(() => base.extend([make('echo')])).toThrow('duplicate tool name: echo');
  });

  test('up to 20 tools all are offered; beyond, the core plus tool_search plus what the session found', async () => {
    const extra = Array.from({ length: 15 }, (_, i) => make(`wasm_${i}`, `Does thing number ${i}.`, i === 7 ? ['base64', 'encode'] : []));
    const registry = new ToolRegistry(builtinTools());
    registry.addSource({ tools: () => extra.slice(0, 10) });
    expect(registry.offered('s1').length).toBe(20);
    registry.addSource({ tools: () => extra.slice(10) });
    const offered = registry.offered('s1').map((t) => t.name);
    expect(offered).toEqual([...builtinTools().map((t) => t.name), 'ToolSearch']);
    const search = registry.get('ToolSearch')!;
    expect(search.description).toContain('Tools that can be loaded: wasm_0, wasm_1,');
    const ctx = (sessionId: string) => ({ ...makeContext(process.cwd()), sessionId });
    expect(await runTool(search, { query: 'base64' }, ctx('s1'))).toEqual({
      content: 'Found 1 tool; it is available from your next step:\n- wasm_7: Does thing number 7.',
      display: { type: 'text', text: 'wasm_7' },
    });
    expect(await runTool(search, { query: 'select:wasm_2, wasm_14, nope' }, ctx('s1'))).toMatchObject({ display: { text: 'wasm_2, wasm_14' } });
    expect(registry.offered('s1').map((t) => t.name).slice(-4)).toEqual(['ToolSearch', 'wasm_2', 'wasm_7', 'wasm_14']);
    // Per session: another session found nothing yet.
    expect(registry.offered('s2').map((t) => t.name).at(-1)).toBe('ToolSearch');
    expect((await runTool(search, { query: 'teleport' }, ctx('s2'))).content).toBe('No tool matches "teleport" among 15 tools. Try other keywords, or select:name with an exact name.');
  });
});
