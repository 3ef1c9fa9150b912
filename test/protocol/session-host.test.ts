/**
 * The session protocol's dispatcher over a real AgentSession (real provider
 * against the fake server, real SQLite): operations in, one ordered event
 * stream out.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { AgentSession } from '../../src/agent/index.ts';
import { compactOp, SessionHost, type SessionEvent } from '../../src/protocol/index.ts';
import { createAnthropicProvider } from '../../src/providers/index.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { builtinTools, parseRuleList, ToolRegistry } from '../../src/tools/index.ts';
import { testSettings } from '../support/agent-settings.ts';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { tempDir } from '../support/temp.ts';

let server: FakeAnthropic;
let store: Store;
let root: string;

beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  root = tempDir('moat-protocol-');
  store = openStore(join(root, '.db', 'moat.db'));
  server.requests.length = 0;
});
afterEach(() => {
  store.close();
  rmSync(root, { recursive: true, force: true });
});

function host(interactive: boolean) {
  const { host, agent: session } = SessionHost.open(
    {
      open: (ask) =>
      AgentSession.open({
        provider: createAnthropicProvider({ apiKey: 'k', baseURL: server.url }),
        registry: new ToolRegistry(builtinTools()),
        store,
        settings: testSettings(root),
        ...(ask === undefined ? {} : { ask }),
      }),
    },
    interactive,
  );
  return { host, session };
}

const requestModel = (i: number) => (server.requests[i]!.body as { model: string }).model;

describe('session host', () => {
  test('user messages queue behind the running one; each run ends with one run_finished; end closes the stream', async () => {
    server.script(reply().text('one'), reply().text('two'));
    const { host: h } = host(false);
    h.submit({ type: 'user_message', content: 'first' });
    h.submit({ type: 'user_message', content: 'second' });
    h.submit({ type: 'end' });
    const events: SessionEvent[] = [];
    for await (const e of h.events) events.push(e);
    const finished = events.filter((e) => e.type === 'run_finished');
    expect(finished.map((e) => [e.stopReason, e.result])).toEqual([
      ['end_turn', 'one'],
      ['end_turn', 'two'],
    ]);
    // Runs never overlap: the second run's first event comes after the first run's last.
    const types = events.map((e) => e.type);
    expect(types.indexOf('run_finished')).toBeLessThan(types.lastIndexOf('session_started'));
    expect(server.requests).toHaveLength(2);
  });

  test('compact queues behind the running message as a run of its own; the next message starts from the summary', async () => {
    server.script(reply().text('one'), reply().text('SUMMARY: one was said.'), reply().text('two'));
    const { host: h, session } = host(false);
    h.submit({ type: 'user_message', content: 'first' });
    h.submit({ type: 'compact', instructions: 'be brief' });
    h.submit({ type: 'user_message', content: 'second' });
    h.submit({ type: 'end' });
    const events: SessionEvent[] = [];
    for await (const e of h.events) events.push(e);
    const finished = events.filter((e) => e.type === 'run_finished');
    expect(finished.map((e) => e.stopReason)).toEqual(['end_turn', 'end_turn', 'end_turn']);
    expect(finished[1]!.result).toStartWith('context compacted: 2 messages summarized');
    expect(JSON.stringify((server.requests[1]!.body as { messages: unknown[] }).messages)).toContain('be brief');
    expect((server.requests[2]!.body as { messages: unknown[] }).messages).toHaveLength(1);
    expect(session.messages().map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
  });

  test('host.compact yields the compaction\'s events up to its run_finished', async () => {
    server.script(reply().text('one'), reply().text('SUMMARY.'));
    const { host: h } = host(false);
    const signal = new AbortController().signal;
    for await (const _ of h.turn('x', signal));
    const types: string[] = [];
    for await (const e of h.compact(undefined, signal)) types.push(e.type);
    expect(types.at(-1)).toBe('run_finished');
    expect(types).toContain('notice');
  });

  test('compactOp: a prompt that is /compact is the command, its rest the instructions; anything else is a prompt', () => {
    expect(compactOp('/compact')).toEqual({ type: 'compact' });
    expect(compactOp('  /compact  keep the paths \n and names ')).toEqual({ type: 'compact', instructions: 'keep the paths \n and names' });
    expect(compactOp([{ type: 'text', text: '/compact tests' }])).toEqual({ type: 'compact', instructions: 'tests' });
    expect(compactOp('/compacting')).toBeUndefined();
    expect(compactOp('please /compact')).toBeUndefined();
    expect(compactOp([{ type: 'text', text: '/compact' }, { type: 'image', mediaType: 'image/png', data: 'AA==' }])).toBeUndefined();
  });

  test('set_model takes effect from the next request', async () => {
    server.script(reply().text('a'), reply().text('b'));
    const { host: h } = host(false);
    const signal = new AbortController().signal;
    for await (const _ of h.turn('x', signal));
    h.submit({ type: 'set_model', model: 'claude-opus-4-5' });
    for await (const _ of h.turn('y', signal));
    expect([requestModel(0), requestModel(1)]).toEqual(['claude-sonnet-4-5', 'claude-opus-4-5']);
  });

  test('interrupt aborts the run in progress through its signal: stopReason aborted, the next message still runs', async () => {
    server.script(reply().text('partial answer').stall(), reply().text('after'));
    const { host: h } = host(false);
    h.submit({ type: 'user_message', content: 'long' });
    const events: SessionEvent[] = [];
    for await (const e of h.events) {
      events.push(e);
      if (e.type === 'text_delta') h.submit({ type: 'interrupt' });
      if (e.type === 'run_finished' && e.stopReason === 'aborted') {
        h.submit({ type: 'user_message', content: 'again' });
        h.submit({ type: 'end' });
      }
    }
    const finished = events.filter((e) => e.type === 'run_finished');
    expect(finished.map((e) => e.stopReason)).toEqual(['aborted', 'end_turn']);
    expect(events.filter((e) => e.type === 'turn_aborted')).toHaveLength(1);
  });

  test('a permission prompt is one event answered by one operation', async () => {
    server.script(reply().toolUse('Bash', { command: 'echo hi' }).stop('tool_use'), reply().text('ran it'));
    const { host: h } = host(true);
    const events: SessionEvent[] = [];
    for await (const e of h.turn('run echo', new AbortController().signal)) {
      events.push(e);
      if (e.type === 'permission_request') h.submit({ type: 'permission_answer', requestId: e.requestId, decision: { behavior: 'allow' } });
    }
    expect(events.filter((e) => e.type === 'permission_request')).toHaveLength(1);
    const done = events.find((e) => e.type === 'tool_finished');
    expect(done?.type === 'tool_finished' && [done.isError, done.content.trim()]).toEqual([false, 'hi']);
  });

  test('interrupt while a question is open withdraws it and ends the run as aborted', async () => {
    server.script(reply().toolUse('Bash', { command: 'echo hi' }).stop('tool_use'));
    const { host: h } = host(true);
    const controller = new AbortController();
    const events: SessionEvent[] = [];
    for await (const e of h.turn('run echo', controller.signal)) {
      events.push(e);
      if (e.type === 'permission_request') controller.abort();
    }
    const resolved = events.find((e) => e.type === 'permission_resolved');
    expect(resolved?.type === 'permission_resolved' && resolved.decision.behavior).toBe('deny');
    expect(events.at(-1)?.type === 'run_finished' && events.at(-1)).toMatchObject({ stopReason: 'aborted' });
  });
});

test('a turn reader that breaks off interrupts its run; the next turn reads only its own events', async () => {
  server.script(reply().text('slow '.repeat(100), { chunkSize: 5, delayMs: 10 }), reply().text('next'));
  const { host: h } = host(false);
  for await (const e of h.turn('first', new AbortController().signal)) if (e.type === 'text_delta') break;
  const second: SessionEvent[] = [];
  for await (const e of h.turn('second', new AbortController().signal)) second.push(e);
  expect(second.filter((e) => e.type === 'run_finished').map((e) => e.type === 'run_finished' && e.result)).toEqual(['next']);
  expect(second[0]?.type).toBe('session_started');
});

describe('per-run model and rule operations', () => {
  const write = (name: string) => reply().toolUse('Write', { file_path: name, content: 'x' }).stop('tool_use');
  const drain = async (it: AsyncIterable<SessionEvent>) => {
    const out: SessionEvent[] = [];
    for await (const e of it) out.push(e);
    return out;
  };

  test("user_message with a model: that run alone is on it (a custom command's model); the session keeps its own", async () => {
    server.script(reply().text('quick'), reply().text('normal'));
    const { host: h, session } = host(false);
    const signal = new AbortController().signal;
    const first = await drain(h.turn('x', signal, 'claude-haiku-4-5'));
    await drain(h.turn('y', signal));
    expect([requestModel(0), requestModel(1)]).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-5']);
    expect(first[0]).toMatchObject({ type: 'session_started', model: 'claude-haiku-4-5' });
    expect(session.currentSettings().model).toBe('claude-sonnet-4-5');
    expect(store.sessions.get(session.id)?.model).toBe('claude-sonnet-4-5');
  });

  test('add_rule and remove_rule change what is allowed from the next call; a rule that does not parse throws', async () => {
    server.script(write('a.txt'), reply().text('1'), write('b.txt'), reply().text('2'), write('c.txt'), reply().text('3'));
    const { host: h } = host(false);
    const signal = new AbortController().signal;
    const denied = async (prompt: string) => (await drain(h.turn(prompt, signal))).some((e) => e.type === 'permission_denied');
    const before = await denied('one');
    h.submit({ type: 'add_rule', behavior: 'allow', rule: 'Write' });
    const added = await denied('two');
    h.submit({ type: 'remove_rule', behavior: 'allow', rule: 'Write' });
    expect([before, added, await denied('three')]).toEqual([true, false, true]);
    expect(() => h.submit({ type: 'add_rule', behavior: 'deny', rule: 'Bash(' })).toThrow();
  });

  test("apply_config: a trusted folder's rules and hooks replace the session's from the next call", async () => {
    server.script(write('a.txt'), reply().text('done'));
    const { host: h } = host(false);
    h.submit({
      type: 'apply_config',
      settings: { allow: parseRuleList(['Write']), deny: [], addDirs: [] },
      hooks: { PostToolUse: [{ callbacks: [async () => ({ hookSpecificOutput: { additionalContext: 'FROM-TRUSTED-HOOK' } })] }] },
    });
    const events = await drain(h.turn('go', new AbortController().signal));
    expect(events.some((e) => e.type === 'permission_denied')).toBe(false);
    expect(JSON.stringify((server.requests[1]!.body as { messages: unknown[] }).messages.at(-1))).toContain('FROM-TRUSTED-HOOK');
  });
});
