/**
 * The agent loop in process: real provider against the fake server, real
 * tools in a temp folder, real SQLite. Checks the event stream and what is
 * persisted.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AgentSession, PermissionBroker, type AgentEvent, type AgentSettings } from '../../src/agent/index.ts';
import { laterStart } from '../../src/agent/compaction.ts';
import { createAnthropicProvider } from '../../src/providers/index.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { builtinTools, defineTool, ToolRegistry, type AnyTool } from '../../src/tools/index.ts';
import { z } from 'zod';
import { testSettings } from '../support/agent-settings.ts';
import { contextTooLong, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { tempDir } from '../support/temp.ts';

let server: FakeAnthropic;
let store: Store;
let cwd: string;

beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  const root = tempDir('moat-agent-');
  cwd = root;
  store = openStore(join(root, '.db', 'moat.db'));
  server.requests.length = 0;
});

const settings = (over: Partial<AgentSettings> = {}) => testSettings(cwd, over);

function open(extraTools: AnyTool[] = [], over: Partial<AgentSettings> = {}, interactive?: { broker: PermissionBroker; remembered: string[] }) {
  return AgentSession.open({
    provider: createAnthropicProvider({ apiKey: 'k', baseURL: server.url }),
    registry: new ToolRegistry([...builtinTools(), ...extraTools]),
    store,
    settings: settings(over),
    ...(interactive ? { ask: interactive.broker.ask, remember: (rule: string) => interactive.remembered.push(rule) } : {}),
  });
}

async function collect(it: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

const finished = (events: AgentEvent[]) => events.find((e) => e.type === 'run_finished') as Extract<AgentEvent, { type: 'run_finished' }>;
const results = (events: AgentEvent[]) =>
  events.filter((e): e is Extract<AgentEvent, { type: 'tool_finished' }> => e.type === 'tool_finished');

/** A read-only tool that records how many calls overlap in time. */
function probeTool(log: { active: number; peak: number }): AnyTool {
  return defineTool({
    name: 'probe',
    description: 'test probe',
    inputSchema: z.object({ ms: z.number() }),
    effect: 'read',
    intent: () => ({ ruleName: 'Probe', paths: [], summary: 'probe' }),
    async execute(input) {
      log.active++;
      log.peak = Math.max(log.peak, log.active);
      await Bun.sleep(input.ms);
      log.active--;
      return { content: 'probed' };
    },
  }) as AnyTool;
}

describe('agent loop', () => {
  test('events come in order and every finished message is persisted', async () => {
    writeFileSync(join(cwd, 'a.txt'), 'hello\n');
    server.script(reply().text('Let me read.').toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'), reply().text('It says hello.'));
    const s = open();
    const events = await collect(s.run('what is in a.txt', new AbortController().signal));
    const types = events.map((e) => e.type).filter((t) => !['text_delta', 'tool_call_delta', 'usage', 'model_stream'].includes(t));
    expect(types).toEqual([
      'session_started',
      'user_message',
      'turn_started',
      'tool_call_started',
      'tool_call_ready',
      'assistant_message',
      'tool_started',
      'tool_finished',
      'tool_results',
      'turn_started',
      'assistant_message',
      'run_finished',
    ]);
    expect(finished(events)).toMatchObject({ stopReason: 'end_turn', result: 'It says hello.', turns: 2 });
    // The model stream in wire order with block indexes (stream-json's partial messages): the block structure as
    // `model_stream`, each delta once as its own event (the only turn with tool calls is the first).
    const firstTurn = events.flatMap((e) => {
      if (e.type === 'model_stream') return e.turn === 1 ? [`${e.event.type}${'index' in e.event ? `:${e.event.index}` : ''}`] : [];
      if (e.type === 'text_delta') return e.turn === 1 ? [`text:${e.index}`] : [];
      if (e.type === 'tool_call_started' || e.type === 'tool_call_delta') return [`${e.type}:${e.index}`];
      return [];
    });
    expect(firstTurn).toEqual(['message_start', 'text_start:0', 'text:0', 'block_end:0', 'tool_call_started:1', 'tool_call_delta:1', 'block_end:1', 'usage', 'stop']);
    expect(events.find((e) => e.type === 'model_stream')).toMatchObject({ event: { type: 'message_start', id: expect.stringMatching(/^msg_fake_/) } });
    // Each text delta reaches the front end once: as `text_delta`, never again inside `model_stream`.
    const streamed = events.flatMap((e) => (e.type === 'text_delta' ? [e.text] : []));
    expect(streamed.join('')).toBe('Let me read.It says hello.');
    const stored = store.messages.list(s.id).map((m) => m.message.role);
    expect(stored).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(store.toolCalls.list(s.id).map((c) => [c.name, c.isError])).toEqual([['Read', false]]);
  });

  test('read-only calls in one message run in parallel, in result order', async () => {
    const log = { active: 0, peak: 0 };
    server.script(
      reply().toolUse('probe', { ms: 150 }, { id: 'p1' }).toolUse('probe', { ms: 50 }, { id: 'p2' }).toolUse('probe', { ms: 100 }, { id: 'p3' }).stop('tool_use'),
      reply().text('ok'),
    );
    const events = await collect(open([probeTool(log)]).run('go', new AbortController().signal));
    expect(log.peak).toBe(3);
    const sent = (server.requests[1]!.body as { messages: { content: { type: string; tool_use_id?: string }[] }[] }).messages[2]!.content;
    expect(sent.map((c) => c.tool_use_id)).toEqual(['p1', 'p2', 'p3']);
    expect(finished(events).stopReason).toBe('end_turn');
  });

  test('unknown tool, invalid input and a throwing tool become error results, not crashes', async () => {
    const boom = defineTool({
      name: 'boom',
      description: 'throws',
      inputSchema: z.object({}),
      effect: 'read',
      intent: () => ({ ruleName: 'Boom', paths: [], summary: 'boom' }),
      async execute() {
        throw new Error('kaboom');
      },
    }) as AnyTool;
    server.script(
      reply().toolUse('nope', {}).toolUse('Read', { file_path: 42 }).toolUse('boom', {}).stop('tool_use'),
      reply().text('recovered'),
    );
    const events = await collect(open([boom]).run('go', new AbortController().signal));
    const r = results(events);
    expect(r.map((x) => x.isError)).toEqual([true, true, true]);
    expect(r[0]!.content).toContain('nope');
    expect(r[1]!.content).toContain('file_path');
    expect(r[2]!.content).toContain('kaboom');
    expect(finished(events).result).toBe('recovered');
  });

  test('max_tokens gets an automatic continue at most 3 times', async () => {
    server.script(
      reply().text('a').stop('max_tokens'),
      reply().text('b').stop('max_tokens'),
      reply().text('c').stop('max_tokens'),
      reply().text('d').stop('max_tokens'),
    );
    const events = await collect(open().run('long', new AbortController().signal));
    expect(server.requests.length).toBe(4);
    expect(finished(events)).toMatchObject({ stopReason: 'end_turn', turns: 4, result: 'd' });
  });

  test('abort during a tool: the open call gets an aborted result, the turn is saved, one turn_aborted', async () => {
    server.script(reply().toolUse('Bash', { command: 'sleep 20' }, { id: 'b1' }).stop('tool_use'));
    const s = open([], { permissionMode: 'bypassPermissions' });
    const ac = new AbortController();
    const events: AgentEvent[] = [];
    for await (const e of s.run('sleep', ac.signal)) {
      events.push(e);
      if (e.type === 'tool_started') setTimeout(() => ac.abort(), 100);
    }
    expect(events.filter((e) => e.type === 'turn_aborted').length).toBe(1);
    expect(finished(events).stopReason).toBe('aborted');
    const last = store.messages.list(s.id).at(-1)!.message;
    expect(last.role).toBe('user');
    expect(last.content.map((c) => c.type === 'tool_result' && c.toolUseId)).toEqual(['b1']);
  });

  test('plan mode offers only read-only tools', async () => {
    server.script(reply().text('plan'));
    const events = await collect(open([], { permissionMode: 'plan' }).run('plan it', new AbortController().signal));
    const started = events[0] as Extract<AgentEvent, { type: 'session_started' }>;
    expect(started.tools).not.toContain('Bash');
    expect(started.tools).not.toContain('Edit');
    expect(started.tools).toContain('Read');
    const sent = (server.requests[0]!.body as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(sent).toEqual(started.tools);
  });

  test('interactive approval: allow once asks again; allow always is remembered and not asked again', async () => {
    const broker = new PermissionBroker();
    const remembered: string[] = [];
    server.script(
      reply().toolUse('Bash', { command: 'echo one' }).stop('tool_use'),
      reply().toolUse('Bash', { command: 'echo two' }).stop('tool_use'),
      reply().toolUse('Bash', { command: 'echo three' }).stop('tool_use'),
      reply().text('done'),
    );
    const s = open([], {}, { broker, remembered });
    const asked: string[] = [];
    const events: AgentEvent[] = [];
    for await (const e of s.run('echo things', new AbortController().signal)) {
      events.push(e);
      if (e.type === 'permission_request') {
        asked.push(e.intent.subject ?? '');
        // first: once; second: always (a prefix rule echo:* covers the third)
        broker.respond(e.requestId, asked.length === 1 ? { behavior: 'allow' } : { behavior: 'allow', remember: 'project' });
      }
    }
    expect(asked).toEqual(['echo one', 'echo two']);
    expect(remembered).toEqual(['Bash(echo:*)']);
    expect(results(events).map((r) => [r.isError, r.content.trim()])).toEqual([
      [false, 'one'],
      [false, 'two'],
      [false, 'three'],
    ]);
  });

  test("an edit's approval shows the diff with the file's real line numbers", async () => {
    const broker = new PermissionBroker();
    writeFileSync(join(cwd, 'lines.txt'), `${Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n')}\n`);
    server.script(
      reply().toolUse('Read', { file_path: 'lines.txt' }).stop('tool_use'),
      reply().toolUse('Edit', { file_path: 'lines.txt', old_string: 'line 9', new_string: 'line nine' }).stop('tool_use'),
      reply().text('done'),
    );
    const s = open([], {}, { broker, remembered: [] });
    let patch = '';
    for await (const e of s.run('edit', new AbortController().signal)) {
      if (e.type === 'permission_request') {
        patch = e.intent.preview?.type === 'diff' ? e.intent.preview.patch : '';
        broker.respond(e.requestId, { behavior: 'allow' });
      }
    }
    expect(patch).toContain('@@ -6,7 +6,7 @@');
    expect(patch).toContain('-line 9\n+line nine');
  });

  test('allow always holds for the session and its next run without touching the settings it was given', async () => {
    const broker = new PermissionBroker();
    const given = settings();
    server.script(
      reply().toolUse('Bash', { command: 'echo one' }).stop('tool_use'),
      reply().text('done'),
      reply().toolUse('Bash', { command: 'echo two' }).stop('tool_use'),
      reply().text('done again'),
    );
    const s = AgentSession.open({
      provider: createAnthropicProvider({ apiKey: 'k', baseURL: server.url }),
      registry: new ToolRegistry(builtinTools()),
      store,
      settings: given,
      ask: broker.ask,
    });
    let asked = 0;
    for (const prompt of ['first', 'second']) {
      for await (const e of s.run(prompt, new AbortController().signal)) {
        if (e.type === 'permission_request') {
          asked++;
          broker.respond(e.requestId, { behavior: 'allow', remember: 'user' });
        }
      }
    }
    expect(asked).toBe(1);
    expect(given.allow).toEqual([]);
    expect(s.currentSettings().allow).toEqual([]);
  });

  test("each call's input is validated once, and the tool runs with the parsed value", async () => {
    let parses = 0;
    const counted = z.object({ n: z.number() }).transform((v) => {
      parses++;
      return { n: v.n * 2 };
    });
    const seen: number[] = [];
    const doubler = defineTool({
      name: 'doubler',
      description: 'counts validations',
      inputSchema: counted,
      effect: 'read',
      intent: () => ({ ruleName: 'Doubler', paths: [], summary: 'doubler' }),
      async execute(input) {
        seen.push(input.n);
        return { content: String(input.n) };
      },
    }) as AnyTool;
    server.script(reply().toolUse('doubler', { n: 21 }).stop('tool_use'), reply().text('ok'));
    const events = await collect(open([doubler]).run('go', new AbortController().signal));
    expect(results(events).map((r) => r.content)).toEqual(['42']);
    expect(seen).toEqual([42]);
    expect(parses).toBe(1);
  });

  test('interactive denial with a message reaches the model', async () => {
    const broker = new PermissionBroker();
    server.script(reply().toolUse('Bash', { command: 'rm -rf build' }).stop('tool_use'), reply().text('ok'));
    const events: AgentEvent[] = [];
    for await (const e of open([], {}, { broker, remembered: [] }).run('clean', new AbortController().signal)) {
      events.push(e);
      if (e.type === 'permission_request') broker.respond(e.requestId, { behavior: 'deny', message: 'use make clean' });
    }
    const [r] = results(events);
    expect(r!.isError).toBe(true);
    expect(r!.content).toContain('use make clean');
  });

  test('a nearly full context is compacted into a summary; resume replays from it', async () => {
    writeFileSync(join(cwd, 'a.txt'), 'A\n');
    server.script(
      // 170k of 200k tokens: over the 80% mark, so the next request is preceded by a summary.
      reply().text('Reading.').toolUse('Read', { file_path: 'a.txt' }).stop('tool_use').usage({ input: 170_000, output: 10 }),
      reply().text('SUMMARY: user asked about a.txt; it was read.'),
      reply().text('a.txt holds A.'),
    );
    const s = open();
    const events = await collect(s.run('what is in a.txt', new AbortController().signal));
    expect(finished(events)).toMatchObject({ stopReason: 'end_turn', result: 'a.txt holds A.' });
    expect(events.some((e) => e.type === 'notice' && e.message.startsWith('context compacted'))).toBe(true);

    const bodies = server.requests.map((r) => r.body as { messages: { role: string; content: { type: string; text?: string }[] }[] });
    // the summary request carries the whole history and the instruction
    expect(JSON.stringify(bodies[1]!.messages)).toContain('about to be replaced by a summary');
    expect(bodies[1]!.messages.length).toBe(3);
    // the request after it starts from the summary alone
    expect(bodies[2]!.messages.length).toBe(1);
    expect(bodies[2]!.messages[0]!.content[0]!.text).toContain('SUMMARY: user asked about a.txt');

    // the store keeps every message; resume replays from the summary
    expect(store.messages.list(s.id).length).toBe(5);
    server.script(reply().text('still here'));
    const resumed = AgentSession.open(
      { provider: createAnthropicProvider({ apiKey: 'k', baseURL: server.url }), registry: new ToolRegistry(builtinTools()), store, settings: settings() },
      { resume: s.id },
    );
    expect(resumed.messages().length).toBe(2);
    expect(resumed.messages()[0]!.role).toBe('user');
  });
});

describe('manual compaction and the context-too-long retry', () => {
  const bodies = () => server.requests.map((r) => JSON.stringify((r.body as { messages: unknown[] }).messages));
  // A fresh fake server: an earlier test may leave responses it scripted but never used.
  beforeAll(async () => {
    const old = server;
    server = await startFakeAnthropic();
    await old.close();
  });

  test('/compact summarizes now with the user\'s instructions; the notice and the result give the tokens before and after', async () => {
    server.script(reply().text('First answer.'), reply().text('SUMMARY: the user said hello.').usage({ input: 12_345, output: 67 }), reply().text('Next answer.'));
    const s = open();
    await collect(s.run('hello', new AbortController().signal));
    const events = await collect(s.compact('keep the file names', new AbortController().signal));
    const notice = events.find((e) => e.type === 'notice');
    expect(notice).toMatchObject({ level: 'info', message: 'context compacted: 2 messages summarized (12,345 → 67 tokens)' });
    expect(finished(events)).toMatchObject({ stopReason: 'end_turn', result: 'context compacted: 2 messages summarized (12,345 → 67 tokens)' });
    expect(bodies()[1]).toContain('about to be replaced by a summary');
    expect(bodies()[1]).toContain('Additional instructions from the user:\\nkeep the file names');
    expect(s.messages().length).toBe(1);
    // the next prompt goes on from the summary
    await collect(s.run('and now?', new AbortController().signal));
    const next = (server.requests[2]!.body as { messages: { content: { text?: string }[] }[] }).messages;
    expect(next.length).toBe(1);
    expect(JSON.stringify(next)).toContain('SUMMARY: the user said hello.');
  });

  test('/compact with nothing to compact is an error run that sends no request', async () => {
    const events = await collect(open().compact(undefined, new AbortController().signal));
    expect(finished(events)).toMatchObject({ stopReason: 'error', error: 'nothing to compact yet: the conversation is empty' });
    expect(server.requests.length).toBe(0);
  });

  test('a refusal as too long compacts once and sends the turn again', async () => {
    server.script(reply().text('First answer.'), contextTooLong(), reply().text('SUMMARY: hello was said.'), reply().text('Second answer.'));
    const s = open();
    await collect(s.run('hello', new AbortController().signal));
    const events = await collect(s.run('go on', new AbortController().signal));
    expect(finished(events)).toMatchObject({ stopReason: 'end_turn', result: 'Second answer.' });
    expect(events.some((e) => e.type === 'notice' && e.message.startsWith('context compacted: 3 messages summarized'))).toBe(true);
    expect(server.requests.length).toBe(4);
    expect(bodies()[2]).toContain('about to be replaced by a summary');
    expect(bodies()[3]).toContain('SUMMARY: hello was said.');
    expect(bodies()[3]).not.toContain('First answer.');
  });

  test('a summary request refused as too long is sent again without the oldest half; the notice says so', async () => {
    server.script(reply().text('First answer.'), contextTooLong(), contextTooLong(), reply().text('SUMMARY: go on was asked.').usage({ input: 50, output: 7 }), reply().text('Second answer.'));
    const s = open();
    await collect(s.run('hello', new AbortController().signal));
    const events = await collect(s.run('go on', new AbortController().signal));
    expect(finished(events)).toMatchObject({ stopReason: 'end_turn', result: 'Second answer.' });
    expect(events.some((e) => e.type === 'notice' && e.message === 'context compacted: 3 messages summarized, the oldest 2 left out as they did not fit (50 → 7 tokens)')).toBe(true);
    // the second summary request starts at the latest prompt
    expect(bodies()[3]).not.toContain('First answer.');
    expect(bodies()[3]).toContain('go on');
    expect(bodies()[3]).toContain('about to be replaced by a summary');
  });

  test('a second refusal after the compaction ends the run with the clear error', async () => {
    server.script(reply().text('First answer.'), contextTooLong(), reply().text('SUMMARY: hello was said.'), contextTooLong());
    const s = open();
    await collect(s.run('hello', new AbortController().signal));
    const events = await collect(s.run('go on', new AbortController().signal));
    const end = finished(events);
    expect(end.stopReason).toBe('error');
    expect(end.error).toContain("the conversation no longer fits the model's context window");
    expect(server.requests.length).toBe(4);
  });
});

test('laterStart: a shorter history starts at a prompt from the middle on, never at tool results cut off from their calls', () => {
  const user = (text: string) => ({ role: 'user' as const, content: [{ type: 'text' as const, text }] });
  const assistant = { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'a' }] };
  const results = { role: 'user' as const, content: [{ type: 'tool_result' as const, toolUseId: 't', content: [{ type: 'text' as const, text: 'r' }], isError: false }] };
  expect(laterStart([user('1'), assistant, user('2'), assistant])).toBe(2);
  expect(laterStart([user('1'), assistant, results, assistant, user('2'), assistant])).toBe(4);
  expect(laterStart([user('1'), assistant, results, assistant])).toBeUndefined();
  expect(laterStart([user('1')])).toBeUndefined();
});
