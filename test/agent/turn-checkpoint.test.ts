/**
 * When a session takes its checkpoints: the tree is read ahead as soon as the
 * model starts a call that can change files (while its arguments stream), the
 * checkpoint itself comes before that call runs, and a run that only reads
 * reads nothing ahead.
 */
import { afterAll, beforeAll, beforeEach, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentSession, type AgentEvent, type TurnCheckpoints } from '../../src/agent/index.ts';
import { createAnthropicProvider } from '../../src/providers/index.ts';
import { openStore } from '../../src/store/index.ts';
import { builtinTools, ToolRegistry } from '../../src/tools/index.ts';
import { testSettings } from '../support/agent-settings.ts';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { tempDir } from '../support/temp.ts';

let server: FakeAnthropic;
let cwd: string;

beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  cwd = tempDir('moat-agent-checkpoint-');
  writeFileSync(join(cwd, 'a.txt'), 'a\n');
});

/** A hook noting each call, in order, with what the tree held then. */
function recording(log: string[]): TurnCheckpoints {
  return {
    readAhead: () => log.push('read ahead'),
    before: async (_s, turn) => log.push(`before ${turn}`),
    after: async (_s, turn) => {
      log.push(`after ${turn}`);
    },
  };
}

async function run(log: string[], prompt: string): Promise<AgentEvent[]> {
  const session = AgentSession.open({
    provider: createAnthropicProvider({ apiKey: 'k', baseURL: server.url }),
    registry: new ToolRegistry(builtinTools()),
    store: openStore(join(cwd, 'moat.db')),
    settings: testSettings(cwd, { permissionMode: 'bypassPermissions' }),
    checkpoints: recording(log),
  });
  const out: AgentEvent[] = [];
  for await (const e of session.run(prompt, new AbortController().signal)) {
    if (e.type === 'tool_call_started') log.push(`call ${e.name}`);
    if (e.type === 'tool_started') log.push(`run ${e.name}`);
    out.push(e);
  }
  return out;
}

test('a call that can change files: the tree is read ahead when the call starts streaming, once, and the checkpoint is taken before it runs', async () => {
  const log: string[] = [];
  server.script(
    reply().toolUse('Read', { file_path: join(cwd, 'a.txt') }).stop('tool_use'),
    reply().toolUse('Write', { file_path: join(cwd, 'b.txt'), content: 'b\n' }).toolUse('Write', { file_path: join(cwd, 'c.txt'), content: 'c\n' }).stop('tool_use'),
    reply().text('Done.'),
  );
  await run(log, 'write two files');
  expect(log).toEqual(['call Read', 'run Read', 'read ahead', 'call Write', 'call Write', 'before 1', 'run Write', 'run Write', 'after 1']);
});

test('a run that only reads reads nothing ahead and takes no checkpoint', async () => {
  const log: string[] = [];
  server.script(reply().toolUse('Read', { file_path: join(cwd, 'a.txt') }).stop('tool_use'), reply().text('It says a.'));
  await run(log, 'read a');
  expect(log).toEqual(['call Read', 'run Read']);
});
