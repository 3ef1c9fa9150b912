/**
 * Hooks in the agent loop, in process (fake model server, real tools, real
 * SQLite): what PreToolUse answers do to a run, which non-tool events run
 * behind which matcher, SubagentStop, PreCompact, Notification, and the
 * transcript file hooks read.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AgentSession,
  PermissionBroker,
  SubagentManager,
  type AgentEvent,
  type AgentSettings,
  type HookCallback,
  type HookCallbackSet,
  type HookInput,
  type OpenOptions,
} from '../../src/agent/index.ts';
import { createAnthropicProvider } from '../../src/providers/index.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { builtinTools, ToolRegistry } from '../../src/tools/index.ts';
import { testSettings } from '../support/agent-settings.ts';
import { firstUserText, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { tempDir } from '../support/temp.ts';

let server: FakeAnthropic;
let store: Store;
let cwd: string;
let managers: SubagentManager[] = [];

beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  cwd = tempDir('moat-session-hooks-');
  store = openStore(join(cwd, '.db', 'moat.db'));
  server.requests.length = 0;
});
afterEach(async () => {
  await Promise.all(managers.map((m) => m.shutdown()));
  managers = [];
  expect(server.remaining()).toBe(0);
  store.close();
});

function open(hooks: HookCallbackSet, over: Partial<AgentSettings> = {}, more: { ask?: PermissionBroker; subagents?: boolean; opts?: OpenOptions } = {}) {
  const manager = more.subagents ? new SubagentManager({}) : undefined;
  if (manager) managers.push(manager);
  return AgentSession.open(
    {
      provider: createAnthropicProvider({ apiKey: 'k', baseURL: server.url }),
      registry: new ToolRegistry(builtinTools()),
      store,
      settings: testSettings(cwd, over),
      hooks,
      ...(more.ask ? { ask: more.ask.ask } : {}),
      ...(manager ? { subagents: { manager } } : {}),
    },
    more.opts ?? {},
  );
}

async function collect(it: AsyncIterable<AgentEvent>, broker?: PermissionBroker): Promise<AgentEvent[]> {
  const out: AgentEvent[] = [];
  for await (const e of it) {
    out.push(e);
    if (e.type === 'permission_request') broker?.respond(e.requestId, { behavior: 'deny', message: 'not now' });
  }
  return out;
}

const run = (s: AgentSession, prompt = 'go') => collect(s.run(prompt, new AbortController().signal));
/** A callback that records its input and answers `out`. */
const recording = (seen: HookInput[], out: Record<string, unknown> = {}): HookCallback => async (input) => {
  seen.push(input);
  return out;
};
const lastMessage = (i: number) => JSON.stringify((server.requests[i]!.body as { messages: unknown[] }).messages.at(-1));
const notices = (events: AgentEvent[]) => events.flatMap((e) => (e.type === 'notice' ? [e.message] : []));
const finished = (events: AgentEvent[]) => events.find((e) => e.type === 'run_finished') as Extract<AgentEvent, { type: 'run_finished' }>;

describe('PreToolUse answers', () => {
  test('continue: false stops the run before the call: nothing runs, the stopReason and systemMessage reach the user', async () => {
    server.script(reply().toolUse('Write', { file_path: 'a.txt', content: 'x' }).toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'));
    const s = open({ PreToolUse: [{ matcher: 'Write', callbacks: [async () => ({ continue: false, stopReason: 'release freeze', systemMessage: 'no writes today' })] }] }, { permissionMode: 'bypassPermissions' });
    const events = await run(s);
    expect(finished(events).stopReason).toBe('end_turn');
    expect(server.requests).toHaveLength(1);
    expect(existsSync(join(cwd, 'a.txt'))).toBe(false);
    expect(notices(events)).toEqual(['no writes today', 'stopped by a hook: release freeze']);
    const results = events.flatMap((e) => (e.type === 'tool_finished' ? [e.content] : []));
    expect(results).toEqual(['Not run: a PreToolUse hook stopped the run (release freeze).', 'Not run: a PreToolUse hook stopped the run (release freeze).']);
    // Every call still has its result in the history: the next prompt sends a valid conversation.
    expect(store.messages.list(s.id).map((m) => m.message.role)).toEqual(['user', 'assistant', 'user']);
  });

  test('additionalContext reaches the model with the call\'s result', async () => {
    writeFileSync(join(cwd, 'a.txt'), 'AAA\n');
    server.script(reply().toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'), reply().text('done'));
    const s = open({ PreToolUse: [{ matcher: 'Read', callbacks: [async () => ({ hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: 'PRE-CONTEXT: a.txt is generated' } })] }] });
    expect(finished(await run(s)).result).toBe('done');
    expect(lastMessage(1)).toContain('AAA');
    expect(lastMessage(1)).toContain('PRE-CONTEXT: a.txt is generated');
  });
});

describe('matchers of events without a tool', () => {
  test('SessionStart matches its source: startup, resume, clear', async () => {
    const seen: HookInput[] = [];
    const hooks: HookCallbackSet = {
      SessionStart: [
        { matcher: 'startup', callbacks: [recording(seen, { hookSpecificOutput: { additionalContext: 'FROM-STARTUP' } })] },
        { matcher: 'resume|clear', callbacks: [recording(seen)] },
      ],
    };
    server.script(reply().text('one'), reply().text('two'), reply().text('three'));
    const first = open(hooks);
    await run(first);
    expect(lastMessage(0)).toContain('FROM-STARTUP');
    await run(open(hooks, {}, { opts: { resume: first.id } }));
    expect(lastMessage(1)).not.toContain('FROM-STARTUP');
    await run(open(hooks, {}, { opts: { startSource: 'clear' } }));
    expect(seen.map((i) => i['source'])).toEqual(['startup', 'resume', 'clear']);
  });

  test('PreCompact runs behind the auto trigger; SessionStart runs again with source compact and its context follows the summary', async () => {
    writeFileSync(join(cwd, 'a.txt'), 'A\n');
    const seen: HookInput[] = [];
    const hooks: HookCallbackSet = {
      PreCompact: [{ matcher: 'manual', callbacks: [recording(seen)] }, { matcher: 'auto', callbacks: [recording(seen)] }],
      SessionStart: [{ matcher: 'compact', callbacks: [recording(seen, { hookSpecificOutput: { additionalContext: 'AFTER-COMPACT' } })] }],
    };
    server.script(
      reply().toolUse('Read', { file_path: 'a.txt' }).stop('tool_use').usage({ input: 170_000, output: 10 }),
      reply().text('SUMMARY: a.txt was read.'),
      reply().text('a.txt holds A.'),
    );
    expect(finished(await run(open(hooks))).result).toBe('a.txt holds A.');
    expect(seen.map((i) => `${i.hook_event_name}:${String(i['trigger'] ?? i['source'])}`)).toEqual(['PreCompact:auto', 'SessionStart:compact']);
    const after = JSON.stringify((server.requests[2]!.body as { messages: unknown[] }).messages);
    expect(after).toContain('SUMMARY: a.txt was read.');
    expect(after).toContain('AFTER-COMPACT');
  });

  test('/compact runs PreCompact behind the manual trigger with the instructions, then SessionStart with source compact', async () => {
    const seen: HookInput[] = [];
    const hooks: HookCallbackSet = {
      PreCompact: [{ matcher: 'auto', callbacks: [recording(seen)] }, { matcher: 'manual', callbacks: [recording(seen)] }],
      SessionStart: [{ matcher: 'compact', callbacks: [recording(seen, { hookSpecificOutput: { additionalContext: 'AFTER-COMPACT' } })] }],
    };
    server.script(reply().text('one'), reply().text('SUMMARY: one.'), reply().text('two'));
    const s = open(hooks);
    await run(s);
    expect(finished(await collect(s.compact('focus on tests', new AbortController().signal))).stopReason).toBe('end_turn');
    expect(seen.map((i) => `${i.hook_event_name}:${String(i['trigger'] ?? i['source'])}`)).toEqual(['PreCompact:manual', 'SessionStart:compact']);
    expect(seen[0]!['custom_instructions']).toBe('focus on tests');
    await run(s, 'next');
    const after = JSON.stringify((server.requests[2]!.body as { messages: unknown[] }).messages);
    expect(after).toContain('SUMMARY: one.');
    expect(after).toContain('AFTER-COMPACT');
  });

  test('Notification runs when moat waits for an approval, behind the permission_prompt matcher', async () => {
    const seen: HookInput[] = [];
    const broker = new PermissionBroker();
    server.script(reply().toolUse('Write', { file_path: 'b.txt', content: 'x' }).stop('tool_use'), reply().text('ok'));
    const s = open({ Notification: [{ matcher: 'idle_prompt', callbacks: [recording(seen)] }, { matcher: 'permission_prompt', callbacks: [recording(seen)] }] }, {}, { ask: broker });
    await collect(s.run('go', new AbortController().signal), broker);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ hook_event_name: 'Notification', notification_type: 'permission_prompt', message: 'moat needs your permission to use Write' });
  });
});

describe('SubagentStop', () => {
  test('runs when a sub-agent ends (Stop only for the parent); a block sends the sub-agent back to work once', async () => {
    const seen: HookInput[] = [];
    let blocked = false;
    const hooks: HookCallbackSet = {
      Stop: [{ callbacks: [recording(seen)] }],
      SubagentStop: [
        {
          callbacks: [
            async (input) => {
              seen.push(input);
              if (blocked) return {};
              blocked = true;
              return { decision: 'block', reason: 'check the file again' };
            },
          ],
        },
      ],
    };
    server.route('PARENT-S', reply().toolUse('Task', { description: 'look', prompt: 'CHILD-S: read a.txt', tools: ['Read'] }).stop('tool_use'), reply().text('parent done'));
    server.route('CHILD-S', reply().text('child done'), reply().text('child really done'));
    const events = await run(open(hooks, { permissionMode: 'bypassPermissions' }, { subagents: true }), 'PARENT-S');
    expect(finished(events).result).toBe('parent done');
    expect(seen.map((i) => `${i.hook_event_name}:${String(i['stop_hook_active'])}`)).toEqual(['SubagentStop:false', 'SubagentStop:true', 'Stop:false']);
    const child = server.requests.map((r) => r.body).filter((b) => firstUserText(b).includes('CHILD-S'));
    expect(JSON.stringify(child[1])).toContain('Stop hook feedback:\\ncheck the file again');
    expect(lastMessage(server.requests.length - 1)).toContain('child really done');
  });
});

describe('transcript_path', () => {
  test('a file in Claude Code\'s JSONL shape with every finished message, written when a hook runs', async () => {
    writeFileSync(join(cwd, 'a.txt'), 'AAA\n');
    const dir = join(cwd, 'transcripts');
    const lines: Record<string, unknown>[][] = [];
    const read: HookCallback = async (input) => {
      const path = String(input['transcript_path']);
      lines.push(readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>));
      return {};
    };
    server.script(reply().text('reading').toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'), reply().text('it says AAA'));
    const s = open({ PostToolUse: [{ callbacks: [read] }], Stop: [{ callbacks: [read] }] }, { transcriptDir: dir });
    await run(s, 'what is in a.txt');
    expect(existsSync(join(dir, `${s.id}.jsonl`))).toBe(true);
    // PostToolUse sees the prompt and the call; Stop sees everything, the result and the answer too.
    expect(lines[0]!.map((l) => l['type'])).toEqual(['user', 'assistant']);
    const all = lines[1]!;
    expect(all.map((l) => l['type'])).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(all[0]).toMatchObject({ sessionId: s.id, cwd, parentUuid: null, isSidechain: false, message: { role: 'user', content: [{ type: 'text', text: 'what is in a.txt' }] } });
    expect(all[1]!['message']).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'reading' }, { type: 'tool_use', name: 'Read', input: { file_path: 'a.txt' } }] });
    expect(all[2]!['message']).toMatchObject({ content: [{ type: 'tool_result', is_error: false }] });
    expect(all[3]!['parentUuid']).toBe(all[2]!['uuid']);
    expect(all[3]!['message']).toMatchObject({ content: [{ type: 'text', text: 'it says AAA' }] });
  });
});
