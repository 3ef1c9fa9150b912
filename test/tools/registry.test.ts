import { expect, test } from 'bun:test';
import { z } from 'zod';
import { builtinTools, defineTool, ToolRegistry, type AnyTool } from '../../src/tools/index.ts';
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
  expect(registry.specs(['write', 'read']).map((s) => s.name)).toEqual(['write', 'read']);
  expect(() => registry.specs(['read', 'teleport'])).toThrow(new MoatError('usage', `Unknown tool: teleport. Available: ${registry.list().map((t) => t.name).join(', ')}.`));
});

test('duplicate names are refused', () => {
  expect(() => new ToolRegistry([echo as AnyTool, echo as AnyTool])).toThrow('duplicate tool name: echo');
});

test('the built-ins', () => {
  expect(new ToolRegistry(builtinTools()).list().map((t) => [t.name, t.effect])).toEqual([
    ['bash', 'execute'],
    ['glob', 'read'],
    ['grep', 'read'],
    ['ls', 'read'],
    ['read', 'read'],
    ['edit', 'write'],
    ['write', 'write'],
    ['todo_write', 'read'],
  ]);
});
