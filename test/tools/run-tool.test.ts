import { expect, test } from 'bun:test';
import { z } from 'zod';
import { builtinTools, defineTool, runTool, ToolError, unknownToolResult, type AnyTool } from '../../src/tools/index.ts';
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

test('invalid input becomes an instruction naming the fields', async () => {
  expect(await runTool(read, {}, makeContext('/tmp'))).toEqual({
    content: 'Invalid input for Read: file_path: expected string. Rewrite the input so it satisfies the schema.',
    isError: true,
  });
  expect(await runTool(read, { file_path: 'x', offset: 0, extra: true }, makeContext('/tmp'))).toEqual({
    content: 'Invalid input for Read: offset: Too small: expected number to be >=1; input: unknown key "extra". Rewrite the input so it satisfies the schema.',
    isError: true,
  });
  expect((await runTool(read, 'not an object', makeContext('/tmp'))).content).toBe(
    'Invalid input for Read: input: expected object. Rewrite the input so it satisfies the schema.',
  );
});

test('a ToolError is returned as is; any other throw is wrapped, never rethrown', async () => {
  const ctx = makeContext('/tmp');
  expect(await runTool(tool(async () => { throw new ToolError('Do it differently.'); }), { n: 1 }, ctx)).toEqual({ content: 'Do it differently.', isError: true });
  expect(await runTool(tool(async () => { throw new TypeError('x is not a function'); }), { n: 1 }, ctx)).toEqual({
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
  expect(await runTool(t, { n: 1 }, makeContext('/tmp', { signal: controller.signal }))).toEqual({
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
