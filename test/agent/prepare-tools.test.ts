/** The offered tools made ready while the model answers a run's first request: schema and module, Read first, the rest after a pause, none once the answer starts. */
import { afterAll, beforeAll, expect, jest, test } from 'bun:test';
import { join } from 'node:path';
import { z } from 'zod';
import { AgentSession } from '../../src/agent/index.ts';
import { prepareTools } from '../../src/agent/prepare-tools.ts';
import { createAnthropicProvider, type Provider } from '../../src/providers/index.ts';
import { openStore } from '../../src/store/index.ts';
import { builtinTools, defineTool, ToolRegistry, type AnyTool, type Effect } from '../../src/tools/index.ts';
import { testSettings } from '../support/agent-settings.ts';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { tempDir } from '../support/temp.ts';

/** A tool that notes when its schema is built and its module loaded. */
function probe(name: string, effect: Effect, log: string[], o: { load?: () => Promise<unknown>; badSchema?: boolean } = {}): AnyTool {
  return defineTool({
    name,
    description: `probe ${name}`,
    jsonSchema: { type: 'object', properties: {} },
    get inputSchema() {
      log.push(`schema ${name}`);
      if (o.badSchema === true) throw new Error('no schema');
      return z.object({});
    },
    effect,
    intent: () => ({ ruleName: name, paths: [], summary: name }),
    load: async () => {
      log.push(`load ${name}`);
      return o.load?.();
    },
    async execute() {
      return { content: 'ok' };
    },
  }) as AnyTool;
}

/** Runs the timers due within `ms`, letting each load's promise settle in between. */
async function advance(ms: number): Promise<void> {
  for (let i = 0; i <= ms; i++) {
    for (let j = 0; j < 5; j++) await Promise.resolve();
    if (i < ms) jest.advanceTimersByTime(1);
    else jest.advanceTimersByTime(0);
  }
  for (let j = 0; j < 5; j++) await Promise.resolve();
}

test('Read first and alone; after a pause the other read-only tools, then the rest, in offered order; nothing once stopped', async () => {
  jest.useFakeTimers();
  try {
    const log: string[] = [];
    const tools = ['Bash:execute', 'Write:write', 'Glob:read', 'Read:read', 'Grep:read', 'Edit:write'].map((s) => {
      const [name, effect] = s.split(':') as [string, Effect];
      return probe(name, effect, log);
    });
    const stop = prepareTools(tools);
    // Not within the task that asked (the request is still being sent then).
    expect(log).toEqual([]);
    await advance(0);
    expect(log).toEqual(['schema Read', 'load Read']);
    await advance(30);
    expect(log).toEqual(['schema Read', 'load Read']);
    await advance(15);
    expect(log).toEqual(['schema Read', 'load Read', 'schema Glob', 'load Glob', 'schema Grep', 'load Grep', 'schema Bash', 'load Bash', 'schema Write', 'load Write', 'schema Edit', 'load Edit']);

    // Made ready once per process: the same tools again cost nothing.
    log.length = 0;
    prepareTools(tools);
    await advance(50);
    expect(log).toEqual([]);
    void stop;
  } finally {
    jest.useRealTimers();
  }
});

test('stop: no tool is made ready after it; a failing schema or load does not stop the others', async () => {
  jest.useFakeTimers();
  try {
    const log: string[] = [];
    const stop = prepareTools([
      probe('Read', 'read', log, { badSchema: true }),
      probe('Glob', 'read', log, { load: () => Promise.reject(new Error('gone')) }),
      probe('Grep', 'read', log),
      probe('Bash', 'execute', log),
    ]);
    await advance(45);
    expect(log).toEqual(['schema Read', 'load Read', 'schema Glob', 'load Glob', 'schema Grep', 'load Grep', 'schema Bash', 'load Bash']);

    const later: string[] = [];
    const stopLater = prepareTools([probe('Read', 'read', later), probe('Glob', 'read', later)]);
    await advance(0);
    expect(later).toEqual(['schema Read', 'load Read']);
    stopLater();
    await advance(100);
    expect(later).toEqual(['schema Read', 'load Read']);
    stop();
  } finally {
    jest.useRealTimers();
  }
});

test("the built-ins whose module is loaded ahead are the read-only ones; the tools that act load theirs with their first call", () => {
  const ahead = builtinTools().filter((t) => t.load !== undefined);
  expect(ahead.map((t) => t.name).sort()).toEqual(['Glob', 'Grep', 'LS', 'Read']);
  expect(ahead.every((t) => t.effect === 'read')).toBe(true);
});

let server: FakeAnthropic;
beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});

test("a session's first request: its tools are made ready while the model answers it", async () => {
  const cwd = tempDir('moat-prepare-tools-');
  const log: string[] = [];
  let loaded!: () => void;
  const readLoaded = new Promise<void>((resolve) => (loaded = resolve));
  const inner = createAnthropicProvider({ apiKey: 'k', baseURL: server.url });
  // The model answers only once Read's module is loaded: without the preparation this run never ends (the test times out).
  const provider: Provider = {
    name: inner.name,
    stream(request, options) {
      log.push('request');
      return (async function* () {
        await readLoaded;
        yield* inner.stream(request, options);
      })();
    },
  };
  const session = AgentSession.open({
    provider,
    registry: new ToolRegistry([probe('Bash', 'execute', log), probe('Read', 'read', log, { load: async () => loaded() })]),
    store: openStore(join(cwd, 'moat.db')),
    settings: testSettings(cwd, { permissionMode: 'bypassPermissions' }),
  });
  server.script(reply().toolUse('Read', {}).stop('tool_use'), reply().text('done'));
  let answer = '';
  for await (const e of session.run('go', new AbortController().signal)) {
    if (e.type === 'tool_started') log.push('tool_started');
    if (e.type === 'run_finished') answer = e.result;
  }
  expect(log.slice(0, 3)).toEqual(['request', 'schema Read', 'load Read']);
  expect(log.indexOf('load Read')).toBeLessThan(log.indexOf('tool_started'));
  expect(answer).toBe('done');
});
