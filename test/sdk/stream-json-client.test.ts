/**
 * The stream-json client without a process: input lines in, output lines
 * out, over a real AgentSession (fake model server, real SQLite). The SDK
 * end-to-end tests drive the same code through dist/moat.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { AgentSession } from '../../src/agent/index.ts';
import { OutputMapper } from '../../src/print/index.ts';
import { SessionHost } from '../../src/protocol/index.ts';
import { createAnthropicProvider } from '../../src/providers/index.ts';
import { runStreamJsonClient, toDecision, type HookCallbackSet } from '../../src/sdk/index.ts';
import { modeUpdate, suggestion } from '../../src/sdk/stream-json-client.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { builtinTools, ToolRegistry } from '../../src/tools/index.ts';
import { testSettings } from '../support/agent-settings.ts';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { tempDir } from '../support/temp.ts';

let server: FakeAnthropic;
let root: string;
let store: Store;

beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  root = tempDir('moat-sdk-');
  store = openStore(join(root, '.db', 'moat.db'));
  server.requests.length = 0;
});
afterEach(() => {
  store.close();
  rmSync(root, { recursive: true, force: true });
});

/** Input lines that can wait on what the client wrote (the program answers questions it sees). */
function programInput(first: unknown[], answer: (line: Record<string, unknown>) => unknown | undefined) {
  const out: Record<string, unknown>[] = [];
  const queue: string[] = first.map((l) => JSON.stringify(l));
  let wake = () => {};
  let done = false;
  async function* lines(): AsyncIterable<string> {
    for (;;) {
      const next = queue.shift();
      if (next !== undefined) {
        yield next;
        continue;
      }
      if (done) return;
      await new Promise<void>((r) => (wake = r));
    }
  }
  const write = (text: string) => {
    const line = JSON.parse(text) as Record<string, unknown>;
    out.push(line);
    const reply = answer(line);
    if (reply !== undefined) queue.push(JSON.stringify(reply));
    if (line['type'] === 'result') done = true;
    wake();
  };
  return { lines: lines(), write, out };
}

const user = (text: string) => ({ type: 'user', message: { role: 'user', content: text } });

async function drive(first: unknown[], answer: (line: Record<string, unknown>) => unknown | undefined, permissionPrompt: boolean) {
  const io = programInput(first, answer);
  let hooksSeen: HookCallbackSet = {};
  const outcome = await runStreamJsonClient({
    lines: io.lines,
    write: io.write,
    debug: () => {},
    permissionPrompt,
    maxTokens: 1000,
    open: async (_init, hooks) => {
      hooksSeen = hooks;
      const { host } = SessionHost.open(
        {
          open: (ask) =>
          AgentSession.open({
            provider: createAnthropicProvider({ apiKey: 'k', baseURL: server.url }),
            registry: new ToolRegistry(builtinTools()),
            store,
            settings: testSettings(root),
            hooks,
            ...(ask === undefined ? {} : { ask }),
          }),
        },
        permissionPrompt,
      );
      return { host, mapper: new OutputMapper({ apiKeySource: 'test', version: '0' }), describe: () => ({ commands: [] }), mcpStatus: () => [], expand: async (text: string) => text, close: async () => {} };
    },
  });
  return { outcome, out: io.out, hooks: hooksSeen };
}

describe('stream-json client', () => {
  test('can_use_tool goes to the program with the suggested rule; its deny reaches the model', async () => {
    server.script(reply().toolUse('Bash', { command: 'touch x' }).stop('tool_use'), reply().text('fine'));
    const { out, outcome } = await drive(
      [user('go')],
      (line) => {
        const req = line['request'] as { subtype?: string } | undefined;
        if (line['type'] !== 'control_request' || req?.subtype !== 'can_use_tool') return undefined;
        return { type: 'control_response', response: { subtype: 'success', request_id: line['request_id'], response: { behavior: 'deny', message: 'nope' } } };
      },
      true,
    );
    const ask = out.find((l) => l['type'] === 'control_request');
    expect(ask?.['request']).toMatchObject({
      subtype: 'can_use_tool',
      tool_name: 'Bash',
      input: { command: 'touch x' },
      permission_suggestions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'touch:*' }], behavior: 'allow', destination: 'localSettings' }],
    });
    expect(outcome.last?.stopReason).toBe('end_turn');
    expect(JSON.stringify((server.requests[1]!.body as { messages: unknown[] }).messages.at(-1))).toContain('nope');
  });

  test('a user line /compact [instructions] is a compaction, not a prompt: its result line says what it freed', async () => {
    server.script(reply().text('hello back'), reply().text('SUMMARY: greetings.').usage({ input: 800, output: 9 }));
    const { out } = await drive([user('hello'), user('/compact mention the greeting')], () => undefined, false);
    const results = out.filter((l) => l['type'] === 'result');
    expect(results.map((r) => r['result'])).toEqual(['hello back', 'context compacted: 2 messages summarized (800 → 9 tokens)']);
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify((server.requests[1]!.body as { messages: unknown[] }).messages.at(-1))).toContain('mention the greeting');
  });

  test('a question withdrawn by an interrupt is cancelled with control_cancel_request; the turn ends aborted', async () => {
    server.script(reply().toolUse('Write', { file_path: 'x.txt', content: 'x' }).stop('tool_use'));
    const { out, outcome } = await drive(
      [user('go')],
      (line) => {
        const req = line['request'] as { subtype?: string } | undefined;
        // The program does not answer: it interrupts the turn instead.
        if (req?.subtype === 'can_use_tool') return { type: 'control_request', request_id: 'int-1', request: { subtype: 'interrupt' } };
        return undefined;
      },
      true,
    );
    const asked = out.find((l) => (l['request'] as { subtype?: string } | undefined)?.subtype === 'can_use_tool');
    expect(out).toContainEqual({ type: 'control_cancel_request', request_id: asked?.['request_id'] });
    expect(outcome.last?.stopReason).toBe('aborted');
  });

  test('a hook callback registration becomes a callback that asks the program', async () => {
    server.script(reply().toolUse('Bash', { command: 'touch y' }).stop('tool_use'), reply().text('ok'));
    const { out } = await drive(
      [{ type: 'control_request', request_id: 'i', request: { subtype: 'initialize', hooks: { PreToolUse: [{ matcher: 'Ba.*', hookCallbackIds: ['h1'] }] } } }, user('go')],
      (line) => {
        const req = line['request'] as { subtype?: string; callback_id?: string } | undefined;
        if (req?.subtype !== 'hook_callback') return undefined;
        return { type: 'control_response', response: { subtype: 'success', request_id: line['request_id'], response: { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'by hook' } } } };
      },
      false,
    );
    const call = out.find((l) => (l['request'] as { subtype?: string } | undefined)?.subtype === 'hook_callback');
    expect(call?.['request']).toMatchObject({ callback_id: 'h1', input: { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'touch y' } } });
    const result = out.find((l) => l['type'] === 'result');
    expect(result?.['permission_denials']).toEqual([{ tool_name: 'Bash', tool_use_id: expect.any(String), tool_input: { command: 'touch y' } }]);
  });
});

describe('the program answers as decisions', () => {
  test('allow with updatedInput and rules; deny with a message', () => {
    expect(toDecision({ behavior: 'deny', message: 'no' })).toEqual({ behavior: 'deny', message: 'no' });
    expect(
      toDecision({
        behavior: 'allow',
        updatedInput: { command: 'ls' },
        updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'ls:*' }, { toolName: 'Read' }], behavior: 'allow', destination: 'userSettings' }],
      }),
    ).toEqual({ behavior: 'allow', remember: 'user', rules: ['Bash(ls:*)', 'Read'], updatedInput: { command: 'ls' } });
    // Claude Code's destinations: the project's local file, its shared one, the user's; session and cliArg keep nothing.
    const to = (destination: string) => toDecision({ behavior: 'allow', updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Read' }], behavior: 'allow', destination }] });
    expect(['localSettings', 'projectSettings', 'userSettings', 'cliArg'].map((d) => to(d))).toEqual(
      (['local', 'project', 'user', 'session'] as const).map((remember) => ({ behavior: 'allow', remember, rules: ['Read'] })),
    );
    expect(toDecision({ behavior: 'allow', updatedPermissions: [{ type: 'addRules', rules: [{ toolName: 'Read' }], destination: 'session' }] })).toEqual({
      behavior: 'allow',
      remember: 'session',
      rules: ['Read'],
    });
    // setMode is not a rule: the client switches the session's mode (modeUpdate); other kinds (addDirectories) are not applied.
    expect(toDecision({ behavior: 'allow', updatedPermissions: [{ type: 'setMode', destination: 'session' }] })).toEqual({ behavior: 'allow' });
  });

  test("setMode in an answer: acceptEdits, default and plan switch the session; bypassPermissions or a made-up mode do not; a deny changes nothing", () => {
    const setMode = (mode: unknown) => modeUpdate({ behavior: 'allow', updatedPermissions: [{ type: 'setMode', mode, destination: 'session' }] });
    expect(['acceptEdits', 'default', 'plan'].map(setMode)).toEqual(['acceptEdits', 'default', 'plan']);
    expect([setMode('bypassPermissions'), setMode('yolo'), setMode(3)]).toEqual([undefined, undefined, undefined]);
    expect(modeUpdate({ behavior: 'deny', message: 'no' })).toBeUndefined();
  });

  test('a suggested rule in Claude Code shape', () => {
    expect(suggestion('Bash(npm test:*)')).toEqual({ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: 'npm test:*' }], behavior: 'allow', destination: 'localSettings' });
    expect(suggestion('WebFetch')).toEqual({ type: 'addRules', rules: [{ toolName: 'WebFetch' }], behavior: 'allow', destination: 'localSettings' });
  });
});
