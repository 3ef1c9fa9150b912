/**
 * The host's operations on what the process holds beside the session (`!cmd`,
 * a skill's expansion, the prompt history, MCP servers, sub-agents,
 * worktrees), over a real AgentSession against the fake server: each reaches
 * its owner's part with its input, bad input and a missing part are refused
 * with one clear line, and a `!cmd` or an expansion is queued like a run and
 * ends with its one closing event.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AgentSession } from '../../src/agent/index.ts';
import { recordChangeWith } from '../../src/cli/checkpoint-setup.ts';
import { skillExpansion } from '../../src/cli/skill-expansion.ts';
import { userShell } from '../../src/cli/user-shell.ts';
import type { Skill } from '../../src/skills/index.ts';
import { SessionHost, type OwnerControls, type SessionEvent } from '../../src/protocol/index.ts';
import { createAnthropicProvider } from '../../src/providers/index.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { builtinTools, ToolRegistry } from '../../src/tools/index.ts';
import { MoatError } from '../../src/util/index.ts';
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
  root = tempDir('moat-host-controls-');
  store = openStore(join(root, '.db', 'moat.db'));
  server.requests.length = 0;
});
afterEach(() => {
  store.close();
  rmSync(root, { recursive: true, force: true });
});

/** A host whose owner gives `controls` (the real `!cmd` runner unless replaced); `answerable`: a front end answers questions. */
function host(controls: OwnerControls<AgentSession> | undefined, answerable = true) {
  return SessionHost.open(
    {
      open: (ask) =>
        AgentSession.open({
          provider: createAnthropicProvider({ apiKey: 'k', baseURL: server.url }),
          registry: new ToolRegistry(builtinTools()),
          store,
          settings: testSettings(root),
          ...(ask === undefined ? {} : { ask }),
        }),
      ...(controls === undefined ? {} : { controls }),
    },
    answerable,
  );
}

const realShell = () => userShell(recordChangeWith(undefined, () => {}));

async function waitUntil(ready: () => boolean): Promise<void> {
  while (!ready()) await Bun.sleep(5);
}

async function drain(it: AsyncIterable<SessionEvent>): Promise<SessionEvent[]> {
  const out: SessionEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

describe('shell (`!cmd`)', () => {
  test('queued behind the running message, never overlapping it; its events end with one shell_finished carrying the output', async () => {
    server.script(reply().text('answer'));
    const { host: h } = host({ shell: realShell() });
    h.submit({ type: 'user_message', content: 'first' });
    h.submit({ type: 'shell', command: 'echo from-the-shell' });
    h.submit({ type: 'end' });
    const events: SessionEvent[] = [];
    for await (const e of h.events) {
      events.push(e);
      if (e.type === 'permission_request') h.submit({ type: 'permission_answer', requestId: e.requestId, decision: { behavior: 'allow' } });
    }
    const types = events.map((e) => e.type);
    expect(types.indexOf('run_finished')).toBeLessThan(types.indexOf('shell_finished'));
    expect(types.filter((t) => t === 'shell_finished')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'shell_finished', command: 'echo from-the-shell', output: 'from-the-shell\n', exitCode: 0 });
  });

  test('a command that writes asks as a Bash call does: one permission_request, answered by permission_answer; denied, it does not run', async () => {
    const { host: h } = host({ shell: realShell() });
    const events: SessionEvent[] = [];
    for await (const e of h.shell(`echo x > ${join(root, 'made.txt')}`, new AbortController().signal)) {
      events.push(e);
      if (e.type === 'permission_request') h.submit({ type: 'permission_answer', requestId: e.requestId, decision: { behavior: 'deny', message: 'not now' } });
    }
    expect(events.map((e) => e.type)).toEqual(['permission_request', 'permission_resolved', 'permission_denied', 'shell_finished']);
    expect(events.at(-1)).toMatchObject({ type: 'shell_finished', exitCode: null });
    expect(events.at(-1)?.type === 'shell_finished' && events.at(-1)).toHaveProperty('output', expect.stringContaining('not now'));
    expect(existsSync(join(root, 'made.txt'))).toBe(false);
  });

  test('interrupt ends a running command through its signal; the next run still goes', async () => {
    server.script(reply().text('after'));
    const { host: h } = host({ shell: realShell() });
    const started = join(root, 'started');
    const stop = new AbortController();
    const t0 = performance.now();
    const events: SessionEvent[] = [];
    for await (const e of h.shell(`touch ${started}; sleep 30`, stop.signal)) {
      events.push(e);
      if (e.type !== 'permission_request') continue;
      h.submit({ type: 'permission_answer', requestId: e.requestId, decision: { behavior: 'allow' } });
      // Esc once it runs, as the user would.
      void waitUntil(() => existsSync(started)).then(() => stop.abort());
    }
    expect(events.at(-1)).toMatchObject({ type: 'shell_finished', exitCode: null });
    expect(performance.now() - t0).toBeLessThan(10_000);
    const next = await drain(h.turn('next', new AbortController().signal));
    expect(next.at(-1)).toMatchObject({ type: 'run_finished', result: 'after' });
  }, 40_000);

  test('a runner that fails still ends the command with its shell_finished, carrying the error', async () => {
    const { host: h } = host({
      shell: () => Promise.reject(new Error('no shell here')),
    });
    const events = await drain(h.shell('ls', new AbortController().signal));
    expect(events).toEqual([{ type: 'shell_finished', command: 'ls', output: '', exitCode: null, durationMs: expect.any(Number), error: 'no shell here' }]);
  });
});

describe('sessions the host opens later', () => {
  test("new_session and resume start with the model and mode set through operations; a model the owner refuses changes nothing", () => {
    const starts: unknown[] = [];
    const { host: h } = SessionHost.open(
      {
        open: (ask, how, start) => {
          starts.push(start);
          return AgentSession.open({ provider: createAnthropicProvider({ apiKey: 'k', baseURL: server.url }), registry: new ToolRegistry(builtinTools()), store, settings: { ...testSettings(root), ...start }, ...(ask === undefined ? {} : { ask }) }, how);
        },
        checkModel: (model) => {
          if (model === 'no-such-model') throw new MoatError('usage', 'unknown model no-such-model');
        },
      },
      true,
    );
    expect(() => h.submit({ type: 'set_model', model: 'no-such-model' })).toThrow('unknown model no-such-model');
    expect(h.agent.currentSettings().model).toBe('claude-sonnet-4-5');
    h.submit({ type: 'set_model', model: 'claude-opus-4-5' });
    h.submit({ type: 'set_permission_mode', mode: 'acceptEdits' });
    const first = h.agent.id;
    h.submit({ type: 'new_session' });
    expect(h.agent.id).not.toBe(first);
    expect(h.agent.currentSettings()).toMatchObject({ model: 'claude-opus-4-5', permissionMode: 'acceptEdits' });
    h.submit({ type: 'resume', sessionId: first });
    expect(h.agent.id).toBe(first);
    expect(starts).toEqual([undefined, { model: 'claude-opus-4-5', permissionMode: 'acceptEdits' }, { model: 'claude-opus-4-5', permissionMode: 'acceptEdits' }]);
  });
});

describe('expand_skill (`/name args`)', () => {
  const ECHO: Skill = { name: 'echo', description: 'echoes', args: [], body: 'Said: !`echo from-the-line`', source: 'project', file: '/x/commands/echo.md', model: 'haiku' };
  const REVIEW: Skill = { name: 'review', description: 'review a file', args: [{ name: 'file', required: true }], body: 'Review ${file}.', source: 'project', file: '/x/review/SKILL.md' };
  const realExpansion = () => skillExpansion([ECHO, REVIEW], undefined, recordChangeWith(undefined, () => {}));

  test("queued behind the running message; its !`cmd` line asks as a Bash call does; one skill_expanded carries the prompt and the skill's model, nothing is sent", async () => {
    server.script(reply().text('answer'));
    const { host: h } = host({ expandSkill: realExpansion() });
    h.submit({ type: 'add_rule', behavior: 'allow', rule: 'Bash(echo:*)' });
    h.submit({ type: 'user_message', content: 'first' });
    h.submit({ type: 'expand_skill', name: 'echo', args: '' });
    h.submit({ type: 'end' });
    const events = await drain(h.events);
    const types = events.map((e) => e.type);
    expect(types.indexOf('run_finished')).toBeLessThan(types.indexOf('skill_expanded'));
    expect(events.at(-1)).toEqual({ type: 'skill_expanded', name: 'echo', prompt: expect.stringContaining('Said: from-the-line'), model: 'claude-haiku-4-5' });
    expect(server.requests).toHaveLength(1);
  });

  test('an unknown skill ends with no prompt; a missing argument with its usage line as the error; an empty name and a missing part are refused', async () => {
    const { host: h } = host({ expandSkill: realExpansion() });
    const signal = new AbortController().signal;
    expect(await drain(h.expandSkill('nope', '', signal))).toEqual([{ type: 'skill_expanded', name: 'nope' }]);
    expect(await drain(h.expandSkill('review', '', signal))).toEqual([{ type: 'skill_expanded', name: 'review', error: expect.stringContaining('/review needs <file>') }]);
    expect(() => h.expandSkill(' ', '', signal)).toThrow('expand_skill: no skill named');
    expect(() => host(undefined).host.submit({ type: 'expand_skill', name: 'echo', args: '' })).toThrow('this session cannot run skills');
  });
});

describe('the process operations', () => {
  test('each reaches its owner part with its input; the answered ones answer through request', async () => {
    const calls: string[] = [];
    const { host: h, agent } = host({
      addPromptHistory: (text) => void calls.push(`history ${text}`),
      approveMcpServers: (names) => void calls.push(`approve ${names.join(',')}`),
      reconnectMcp: async (server) => void calls.push(`reconnect ${server}`),
      stopSubagent: (id) => (calls.push(`stop ${id}`), id === 'agent-1'),
      mergeWorktree: async (a, id) => (calls.push(`merge ${id} in ${a === agent ? 'the open session' : 'another'}`), { branch: `moat/${id}`, outcome: { kind: 'merged', summary: '1 file changed' } }),
      removeWorktree: async (id, force) => (calls.push(`rm ${id} ${force}`), { branch: `moat/${id}` }),
    });
    h.submit({ type: 'add_prompt_history', text: 'fix the tests' });
    h.submit({ type: 'approve_mcp_servers', names: ['db', 'search'] });
    h.submit({ type: 'stop_subagent', agentId: 'agent-1' });
    expect(await h.request({ type: 'reconnect_mcp', server: 'db' })).toBeUndefined();
    expect(await h.request({ type: 'merge_worktree', id: 'w1' })).toEqual({ branch: 'moat/w1', outcome: { kind: 'merged', summary: '1 file changed' } });
    expect(await h.request({ type: 'remove_worktree', id: 'w2', force: true })).toEqual({ branch: 'moat/w2' });
    expect(calls).toEqual(['history fix the tests', 'approve db,search', 'stop agent-1', 'reconnect db', 'merge w1 in the open session', 'rm w2 true']);
  });

  test('sent with submit, an answered operation says its outcome (or its refusal) as a notice before the next run', async () => {
    server.script(reply().text('ok'));
    const removed = Promise.withResolvers<void>();
    const refused = Promise.withResolvers<void>();
    const { host: h } = host({
      removeWorktree: async (id) => {
        removed.resolve();
        return { branch: `moat/${id}` };
      },
      reconnectMcp: async (server) => {
        refused.resolve();
        throw new Error(`No MCP server is called ${server}.`);
      },
    });
    h.submit({ type: 'remove_worktree', id: 'w2' });
    h.submit({ type: 'reconnect_mcp', server: 'ghost' });
    await Promise.all([removed.promise, refused.promise]);
    const events = await drain(h.turn('next', new AbortController().signal));
    expect(events.filter((e) => e.type === 'notice').map((e) => e.type === 'notice' && [e.level, e.message])).toEqual([
      ['info', 'removed worktree w2 and branch moat/w2'],
      ['error', 'No MCP server is called ghost.'],
    ]);
  });

  test("a worktree's merge changes the project's files: refused while a run goes, as a rewind is, and a prompt sent during it starts after it", async () => {
    server.script(reply().text('first'), reply().text('second'));
    const merging = Promise.withResolvers<void>();
    const calls: string[] = [];
    const { host: h } = host({
      mergeWorktree: async (_agent, id) => {
        calls.push(`merge ${id}`);
        // Only the merge the test holds waits (a refusal that fails to come must not hang the test).
        if (id === 'w1') await merging.promise;
        calls.push(`merged ${id}`);
        return { branch: `moat/${id}`, outcome: { kind: 'merged', summary: '1 file changed' } };
      },
    });
    h.submit({ type: 'user_message', content: 'first' });
    expect(h.busy).toBe(true);
    await expect(h.request({ type: 'merge_worktree', id: 'w0' })).rejects.toThrow('cannot merge a worktree while the session is working: interrupt it first');
    await expect(h.request({ type: 'rewind', checkpointId: 'c1', code: true, conversation: true })).rejects.toThrow('cannot rewind while the session is working: interrupt it first');
    const events: SessionEvent[] = [];
    for await (const e of h.events) {
      events.push(e);
      if (e.type === 'run_finished') break;
    }
    await waitUntil(() => !h.busy);
    expect(calls).toEqual([]);

    const merged = h.request({ type: 'merge_worktree', id: 'w1' });
    h.submit({ type: 'user_message', content: 'second' });
    // Waiting for the merge: no run started.
    const startedDuringMerge = h.busy;
    merging.resolve();
    expect(startedDuringMerge).toBe(false);
    expect(await merged).toMatchObject({ branch: 'moat/w1' });
    h.submit({ type: 'end' });
    for await (const e of h.events) events.push(e);
    expect(calls).toEqual(['merge w1', 'merged w1']);
    expect(events.filter((e) => e.type === 'run_finished')).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  test('bad input is refused with one line: an empty command or prompt, no server named, a sub-agent no longer going', () => {
    const { host: h } = host({ shell: realShell(), addPromptHistory: () => {}, approveMcpServers: () => {}, stopSubagent: () => false });
    expect(() => h.submit({ type: 'shell', command: '  ' })).toThrow('shell: no command given');
    expect(() => h.shell('', new AbortController().signal)).toThrow('shell: no command given');
    expect(() => h.submit({ type: 'add_prompt_history', text: '\n' })).toThrow('add_prompt_history: the prompt is empty');
    expect(() => h.submit({ type: 'approve_mcp_servers', names: [] })).toThrow('approve_mcp_servers: no server named');
    expect(() => h.submit({ type: 'stop_subagent', agentId: 'agent-9' })).toThrow('no queued or running sub-agent agent-9');
  });

  test('a front end that did not give a part (-p gives none) refuses its operations as usage errors', async () => {
    const { host: h } = host(undefined, false);
    const refused = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof MoatError ? [e.code, e.message] : e;
      }
      return 'accepted';
    };
    expect(refused(() => h.submit({ type: 'shell', command: 'ls' }))).toEqual(['usage', 'this session cannot run shell commands']);
    expect(refused(() => h.submit({ type: 'add_prompt_history', text: 'x' }))).toEqual(['usage', 'this session cannot keep a prompt history']);
    expect(refused(() => h.submit({ type: 'approve_mcp_servers', names: ['db'] }))).toEqual(['usage', 'this session cannot approve MCP servers']);
    expect(refused(() => h.submit({ type: 'stop_subagent', agentId: 'a' }))).toEqual(['usage', 'this session cannot stop sub-agents']);
    await expect(h.request({ type: 'reconnect_mcp', server: 'db' })).rejects.toThrow('this session cannot reconnect MCP servers');
    await expect(h.request({ type: 'merge_worktree', id: 'w1' })).rejects.toThrow('this session cannot merge worktrees');
    await expect(h.request({ type: 'remove_worktree', id: 'w1' })).rejects.toThrow('this session cannot remove worktrees');
  });
});
