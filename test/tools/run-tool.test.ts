import { expect, test } from 'bun:test';
import { z } from 'zod';
import { builtinTools, defineTool, invalidInputMessage, runWithPolicy, ToolError, unknownToolResult, type AnyTool } from '../../src/tools/index.ts';
import { makeContext } from './tool-context.ts';

function tool(execute: () => Promise<never>): AnyTool {
  return defineTool({
    name: 'boom',
    description: 'fails',
    inputSchema: z.strictObject({ n: z.number() }),
    effect: 'read',
    intent: () => ({ ruleName: 'Boom', paths: [], summary: 'boom' }),
    execute,
  }) as AnyTool;
}

const read = builtinTools().find((t) => t.name === 'Read') as AnyTool;

/** What the agent answers a call whose input fails the schema with. */
function invalid(tool: AnyTool, input: unknown): string | undefined {
  const parsed = tool.inputSchema.safeParse(input);
  return parsed.success ? undefined : invalidInputMessage(tool.name, parsed.error.issues);
}

test('invalid input becomes an instruction naming the fields', () => {
  expect(invalid(read, {})).toBe('Invalid input for Read: file_path: expected string. Rewrite the input so it satisfies the schema.');
  expect(invalid(read, { file_path: 'x', offset: 0, extra: true })).toBe(
    'Invalid input for Read: offset: Too small: expected number to be >=1; input: unknown key "extra". Rewrite the input so it satisfies the schema.',
  );
  expect(invalid(read, 'not an object')).toBe('Invalid input for Read: input: expected object. Rewrite the input so it satisfies the schema.');
});

test('a ToolError is returned as is; any other throw is wrapped, never rethrown', async () => {
  const ctx = makeContext('/tmp');
  expect(await runWithPolicy(tool(async () => { throw new ToolError('Do it differently.'); }), { n: 1 }, ctx, undefined)).toEqual({ content: 'Do it differently.', isError: true });
  expect(await runWithPolicy(tool(async () => { throw new TypeError('x is not a function'); }), { n: 1 }, ctx, undefined)).toEqual({
    content: 'boom failed: x is not a function',
    isError: true,
    // Not foreseen by the tool: a configured retry may try it again.
    retryable: true,
  });
});

test('an aborted signal gives the aborted result without running the tool', async () => {
  const controller = new AbortController();
  controller.abort();
  let ran = false;
  const t = tool(async () => {
    ran = true;
    throw new Error('should not run');
  });
  expect(await runWithPolicy(t, { n: 1 }, makeContext('/tmp', { signal: controller.signal }), undefined)).toEqual({
    content: 'Aborted: the user interrupted this tool call before it finished.',
    isError: true,
  });
  expect(ran).toBe(false);
});

test('unknownToolResult lists what is available', () => {
  expect(unknownToolResult('teleport', ['read', 'write'])).toEqual({
    content: 'Unknown tool: teleport. Available tools: read, write. Call one of these instead.',
    isError: true,
  });
});
