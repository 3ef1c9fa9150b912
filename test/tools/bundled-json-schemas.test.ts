/**
 * moat's own tools carry the JSON Schema of their input computed while
 * bundling (a Bun macro): it must be exactly what converting their zod schema
 * gives now, so the zod schema stays the single source.
 */
import { expect, test } from 'bun:test';
import { createSkillTool } from '../../src/agent/skill-tool.ts';
import { taskResultTool, taskStatusTool, taskTool, type SubagentHost } from '../../src/agent/subagents/index.ts';
import { scheduleTool } from '../../src/cron/index.ts';
import { builtinTools, type AnyTool } from '../../src/tools/index.ts';
import { toolSearchTool } from '../../src/tools/tool-search.ts';
import { inputJsonSchema } from '../../src/util/index.ts';

const host = { support: { manager: {} } } as unknown as SubagentHost;
const tools: AnyTool[] = [
  ...builtinTools(),
  createSkillTool([]),
  scheduleTool({
    repo: () => {
      throw new Error('unused');
    },
    cwd: '/',
  }),
  taskTool(host),
  taskStatusTool(host),
  taskResultTool(host),
  toolSearchTool({ candidates: () => [], remember: () => {} }),
];

for (const tool of tools) {
  test(`${tool.name}: the JSON Schema made while bundling is its zod schema's`, () => {
    expect(tool.jsonSchema).toBeDefined();
    expect(tool.jsonSchema).toEqual(inputJsonSchema(tool.inputSchema));
  });
}

test('each tool builds its zod schema on first use, once: offering a tool (the first request) constructs none', () => {
  for (const tool of tools) {
    const getter = Object.getOwnPropertyDescriptor(tool, 'inputSchema')?.get;
    expect([tool.name, typeof getter]).toEqual([tool.name, 'function']);
    expect(tool.inputSchema).toBe(tool.inputSchema);
  }
});
