/** What is done for a tool call while its arguments still stream: its input schema is built before the stream ends, not after. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { z } from 'zod';
import { AgentSession } from '../../src/agent/index.ts';
import { createAnthropicProvider } from '../../src/providers/index.ts';
import { openStore } from '../../src/store/index.ts';
import { builtinTools, defineTool, ToolRegistry, type AnyTool } from '../../src/tools/index.ts';
import { testSettings } from '../support/agent-settings.ts';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { tempDir } from '../support/temp.ts';

let server: FakeAnthropic;
beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});

test("a call's input schema is built when the call starts streaming, before its arguments end", async () => {
  const cwd = tempDir('moat-prepare-call-');
  const log: string[] = [];
  let schema: z.ZodType | undefined;
  const probe = defineTool({
    name: 'probe',
    description: 'notes when its schema is built',
    // The JSON Schema is given, so nothing but a call needs the zod schema.
    jsonSchema: { type: 'object', properties: { note: { type: 'string' } } },
    get inputSchema() {
      if (schema === undefined) log.push('schema built');
      return (schema ??= z.object({ note: z.string() }));
    },
    effect: 'read',
    intent: () => ({ ruleName: 'probe', paths: [], summary: 'probe' }),
    async execute() {
      return { content: 'ok' };
    },
  }) as AnyTool;
  const session = AgentSession.open({
    provider: createAnthropicProvider({ apiKey: 'k', baseURL: server.url }),
    registry: new ToolRegistry([...builtinTools(), probe]),
    store: openStore(join(cwd, 'moat.db')),
    settings: testSettings(cwd, { permissionMode: 'bypassPermissions' }),
  });
  server.script(reply().toolUse('probe', { note: 'a long note streamed in pieces' }).stop('tool_use'), reply().text('done'));
  for await (const e of session.run('go', new AbortController().signal)) {
    if (e.type === 'tool_call_started' || e.type === 'tool_call_delta' || e.type === 'assistant_message' || e.type === 'tool_started') log.push(e.type);
  }
  expect(log.indexOf('schema built')).toBeGreaterThanOrEqual(0);
  expect(log.indexOf('schema built')).toBeLessThan(log.indexOf('tool_call_delta'));
  expect(log.filter((l) => l === 'schema built')).toHaveLength(1);
});
