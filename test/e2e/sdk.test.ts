/**
 * The real Claude Agent SDK (`@anthropic-ai/claude-agent-sdk`, from npm)
 * drives the compiled binary: `query()` with `pathToClaudeCodeExecutable`
 * pointing at dist/moat, against the fake model server. Whatever the SDK
 * sends (flags, initialize, control requests) is what a real program sends.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { query, type Options, type SDKMessage, type SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { MOAT_BIN, type Sandbox } from '../support/run-moat.ts';

let server: FakeAnthropic;
let sb: Sandbox;

serveFakeAnthropic((s) => (server = s), (s) => (sb = s));

function options(over: Partial<Options> = {}): Options {
  const stderr: string[] = [];
  return {
    pathToClaudeCodeExecutable: MOAT_BIN,
    cwd: sb.cwd,
    env: sb.env,
    model: 'claude-sonnet-4-5',
    stderr: (d) => stderr.push(d),
    ...over,
  };
}

async function all(q: AsyncIterable<SDKMessage>): Promise<SDKMessage[]> {
  const out: SDKMessage[] = [];
  for await (const m of q) out.push(m);
  return out;
}

function resultOf(messages: SDKMessage[]) {
  const r = messages.find((m) => m.type === 'result');
  if (r?.type !== 'result') throw new Error(`no result among ${messages.map((m) => m.type).join(', ')}`);
  return r;
}

/** A prompt stream that stays open until `close()`: the SDK's streaming input mode (needed for interrupt and setPermissionMode). */
function openPrompt(first: string) {
  const waiting: string[] = [first];
  let wake: () => void = () => {};
  let closed = false;
  async function* gen(): AsyncGenerator<SDKUserMessage> {
    for (;;) {
      const next = waiting.shift();
      if (next !== undefined) {
        yield { type: 'user', message: { role: 'user', content: next }, parent_tool_use_id: null, session_id: '' };
        continue;
      }
      if (closed) return;
      await new Promise<void>((r) => (wake = r));
    }
  }
  return {
    prompt: gen(),
    push: (text: string) => {
      waiting.push(text);
      wake();
    },
    close: () => {
      closed = true;
      wake();
    },
  };
}

const toolResultsSent = (i: number) =>
  (server.requests[i]!.body as { messages: { role: string; content: { type: string; content?: unknown; is_error?: boolean }[] }[] }).messages
    .at(-1)!
    .content.filter((c) => c.type === 'tool_result');

describe('Claude Agent SDK → moat', () => {
  test('read-then-answer: system init, assistant, the tool result with tool_use_result, one result', async () => {
    writeFileSync(join(sb.cwd, 'a.txt'), 'hello\n');
    server.script(reply().text('Let me read.').toolUse('Read', { file_path: 'a.txt' }).stop('tool_use'), reply().text('It says hello.'));
    const messages = await all(query({ prompt: 'what is in a.txt', options: options() }));
    expect(messages[0]).toMatchObject({ type: 'system', subtype: 'init', cwd: sb.cwd, model: 'claude-sonnet-4-5' });
    const r = resultOf(messages);
    expect(r).toMatchObject({ subtype: 'success', is_error: false, result: 'It says hello.', num_turns: 2 });
    const user = messages.find((m) => m.type === 'user');
    expect(user).toMatchObject({ tool_use_result: { type: 'text', file: { numLines: 1 } } });
    // Two assistant lines (text, tool_use) share the first message's id.
    const ids = messages.flatMap((m) => (m.type === 'assistant' ? [m.message.id] : []));
    expect(ids.length).toBe(3);
    expect(ids[0]).toBe(ids[1]!);
  });

  test('canUseTool: a denied Bash call is refused with the message, an allowed one runs', async () => {
    server.script(
      // Writing in the working folder is what asks: by default bash runs in the read-only OS sandbox.
      reply().toolUse('Bash', { command: 'touch denied.txt', sandbox: 'workspace-write' }).stop('tool_use'),
      reply().toolUse('Bash', { command: 'touch allowed.txt', sandbox: 'workspace-write' }).stop('tool_use'),
      reply().text('done'),
    );
    const asked: string[] = [];
    const messages = await all(
      query({
        prompt: 'make files',
        options: options({
          canUseTool: async (toolName, input) => {
            asked.push(`${toolName} ${String(input['command'])}`);
            return asked.length === 1 ? { behavior: 'deny', message: 'not that one' } : { behavior: 'allow', updatedInput: input };
          },
        }),
      }),
    );
    expect(asked).toEqual(['Bash touch denied.txt', 'Bash touch allowed.txt']);
    expect(existsSync(join(sb.cwd, 'denied.txt'))).toBe(false);
    expect(existsSync(join(sb.cwd, 'allowed.txt'))).toBe(true);
    expect(toolResultsSent(1)[0]).toMatchObject({ is_error: true });
    expect(JSON.stringify(toolResultsSent(1)[0]!.content)).toContain('not that one');
    const r = resultOf(messages);
    expect(r.subtype).toBe('success');
    expect(r.permission_denials).toEqual([{ tool_name: 'Bash', tool_use_id: expect.any(String), tool_input: { command: 'touch denied.txt', sandbox: 'workspace-write' } }]);
  });

  test('canUseTool "always" with destination localSettings: written to .claude/settings.local.json, and the next run is not asked', async () => {
    // A command's "always" is a rule (an edit's is acceptEdits for the session, claude-code-compat.test.ts).
    const write = (name: string) => reply().toolUse('Bash', { command: `touch ${name}`, sandbox: 'workspace-write' }).stop('tool_use');
    server.script(write('notes.md'), reply().text('first'), write('notes.md'), reply().text('second'));
    const asked: unknown[] = [];
    const canUseTool: Options['canUseTool'] = async (_tool, input, { suggestions }) => {
      asked.push(suggestions);
      // What an "always allow" button sends: the suggested rules, kept where they say (localSettings).
      return { behavior: 'allow', updatedInput: input, ...(suggestions ? { updatedPermissions: suggestions } : {}) };
    };
    const first = resultOf(await all(query({ prompt: 'write notes', options: options({ canUseTool }) })));
    expect(first.permission_denials).toEqual([]);
    expect(asked).toEqual([[{ type: 'addRules', rules: [expect.objectContaining({ toolName: 'Bash' })], behavior: 'allow', destination: 'localSettings' }]]);
    const local = JSON.parse(readFileSync(join(sb.cwd, '.claude', 'settings.local.json'), 'utf8')) as { permissions: { allow: string[] } };
    expect(local.permissions.allow).toHaveLength(1);
    // A new process, the folder never trusted: the rule is the user's own answer, so it holds.
    const second = resultOf(await all(query({ prompt: 'write notes again', options: options({ canUseTool }) })));
    expect(asked).toHaveLength(1);
    expect(second.permission_denials).toEqual([]);
  });

  test('canUseTool updatedInput: the call runs with the input the program gave', async () => {
    server.script(reply().toolUse('Bash', { command: 'touch original.txt', sandbox: 'workspace-write' }).stop('tool_use'), reply().text('done'));
    await all(
      query({
        prompt: 'make a file',
        options: options({ canUseTool: async () => ({ behavior: 'allow', updatedInput: { command: 'touch rewritten.txt' } }) }),
      }),
    );
    expect(existsSync(join(sb.cwd, 'rewritten.txt'))).toBe(true);
    expect(existsSync(join(sb.cwd, 'original.txt'))).toBe(false);
  });

  test('interrupt() mid-stream ends the turn as an error_during_execution result; the session goes on', async () => {
    server.script(reply().text('slow '.repeat(200), { chunkSize: 5, delayMs: 20 }), reply().text('second answer'));
    const input = openPrompt('talk slowly');
    const q = query({ prompt: input.prompt, options: options({ includePartialMessages: true }) });
    const seen: SDKMessage[] = [];
    const results: SDKMessage[] = [];
    let interrupted = false;
    for await (const m of q) {
      seen.push(m);
      if (!interrupted && m.type === 'stream_event' && m.event.type === 'content_block_delta') {
        interrupted = true;
        await q.interrupt();
      }
      if (m.type !== 'result') continue;
      results.push(m);
      if (results.length === 1) input.push('and now?');
      else break;
    }
    input.close();
    q.close();
    expect(results[0]).toMatchObject({ subtype: 'error_during_execution', is_error: true });
    expect(results[1]).toMatchObject({ subtype: 'success', result: 'second answer' });
    // Far fewer than the 200 deltas the server would have sent.
    expect(seen.filter((m) => m.type === 'stream_event' && m.event.type === 'content_block_delta').length).toBeLessThan(100);
    // The interrupted turn's text is kept, marked, in the history the next request carries.
    const history = JSON.stringify((server.requests[1]!.body as { messages: unknown[] }).messages);
    expect(history).toContain('interrupted by the user');
  });

  test('includePartialMessages: stream_event lines carry the whole Anthropic event sequence with indexes', async () => {
    server.script(reply().text('Hi there'));
    const messages = await all(query({ prompt: 'hi', options: options({ includePartialMessages: true }) }));
    const events = messages.flatMap((m) => (m.type === 'stream_event' ? [m.event] : []));
    expect(events.map((e) => e.type)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    expect(events[1]).toMatchObject({ index: 0, content_block: { type: 'text' } });
    expect(resultOf(messages)).toMatchObject({ subtype: 'success', result: 'Hi there' });
  });

  test('outputFormat json_schema: the answer comes back as structured_output, checked against the schema', async () => {
    const schema = { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'], additionalProperties: false };
    server.script(
      // The first try does not match the schema: the error goes back to the model, which fixes it.
      reply().toolUse('StructuredOutput', { answer: 'forty-two' }).stop('tool_use'),
      reply().toolUse('StructuredOutput', { answer: 42 }).stop('tool_use'),
    );
    const messages = await all(query({ prompt: 'what is six times seven', options: options({ outputFormat: { type: 'json_schema', schema } }) }));
    const r = resultOf(messages);
    expect(r.subtype).toBe('success');
    expect(r.type === 'result' && r.subtype === 'success' && r.structured_output).toEqual({ answer: 42 });
    const offered = (server.requests[0]!.body as { tools: { name: string; input_schema: unknown }[] }).tools.find((t) => t.name === 'StructuredOutput');
    expect(offered?.input_schema).toEqual(schema);
    expect(toolResultsSent(1)[0]).toMatchObject({ is_error: true });
  });

  test('/compact: the SDK receives the compact_boundary message, with the tokens before and after', async () => {
    server.script(reply().text('first answer'), reply().text('SUMMARY: one question.').usage({ input: 2_345, output: 9 }));
    const input = openPrompt('first question');
    const q = query({ prompt: input.prompt, options: options() });
    const seen: SDKMessage[] = [];
    let results = 0;
    for await (const m of q) {
      seen.push(m);
      if (m.type !== 'result') continue;
      if (++results === 1) input.push('/compact');
      else break;
    }
    input.close();
    q.close();
    const boundary = seen.find((m) => m.type === 'system' && m.subtype === 'compact_boundary');
    expect(boundary).toMatchObject({ type: 'system', subtype: 'compact_boundary', compact_metadata: { trigger: 'manual', pre_tokens: 2_345, post_tokens: 9 } });
    expect(server.remaining()).toBe(0);
  });

  test('setPermissionMode: after acceptEdits, the next turn writes without asking', async () => {
    server.script(
      reply().toolUse('Write', { file_path: 'first.txt', content: '1\n' }).stop('tool_use'),
      reply().text('not written'),
      reply().toolUse('Write', { file_path: 'second.txt', content: '2\n' }).stop('tool_use'),
      reply().text('written'),
    );
    const input = openPrompt('write first');
    const asked: string[] = [];
    const q = query({
      prompt: input.prompt,
      options: options({
        canUseTool: async (toolName) => {
          asked.push(toolName);
          return { behavior: 'deny', message: 'no' };
        },
      }),
    });
    const results: string[] = [];
    for await (const m of q) {
      if (m.type !== 'result') continue;
      results.push(m.subtype === 'success' ? m.result : m.subtype);
      if (results.length === 1) {
        await q.setPermissionMode('acceptEdits');
        input.push('write second');
      } else break;
    }
    input.close();
    q.close();
    expect(results).toEqual(['not written', 'written']);
    expect(asked).toEqual(['Write']);
    expect(existsSync(join(sb.cwd, 'first.txt'))).toBe(false);
    expect(existsSync(join(sb.cwd, 'second.txt'))).toBe(true);
  });

  test('setMaxThinkingTokens: the next request thinks with that budget', async () => {
    server.script(reply().text('one'), reply().text('two'));
    const input = openPrompt('first');
    const q = query({ prompt: input.prompt, options: options() });
    let results = 0;
    for await (const m of q) {
      if (m.type !== 'result') continue;
      if (++results === 1) {
        await q.setMaxThinkingTokens(4096);
        input.push('second');
      } else break;
    }
    input.close();
    q.close();
    const thinking = server.requests.map((r) => (r.body as { thinking?: unknown }).thinking);
    expect(thinking).toEqual([undefined, { type: 'enabled', budget_tokens: 4096 }]);
  });

  test('a PreToolUse hook callback in the program blocks a Bash call', async () => {
    server.script(reply().toolUse('Bash', { command: 'touch hooked.txt' }).stop('tool_use'), reply().text('blocked, ok'));
    const seen: string[] = [];
    const messages = await all(
      query({
        prompt: 'make a file',
        options: options({
          permissionMode: 'bypassPermissions',
          allowDangerouslySkipPermissions: true,
          hooks: {
            PreToolUse: [
              {
                matcher: 'Bash',
                hooks: [
                  async (input) => {
                    seen.push(input.hook_event_name === 'PreToolUse' ? String((input.tool_input as { command: string }).command) : '');
                    return { decision: 'block', reason: 'no files today' };
                  },
                ],
              },
            ],
          },
        }),
      }),
    );
    expect(seen).toEqual(['touch hooked.txt']);
    expect(existsSync(join(sb.cwd, 'hooked.txt'))).toBe(false);
    expect(JSON.stringify(toolResultsSent(1)[0]!.content)).toContain('no files today');
    expect(resultOf(messages)).toMatchObject({ subtype: 'success', result: 'blocked, ok' });
  });

  test('supportedCommands() lists the skills moat has', async () => {
    server.script(reply().text('ok'));
    const input = openPrompt('hi');
    const q = query({ prompt: input.prompt, options: options() });
    const commands = await q.supportedCommands();
    expect(commands.map((c) => c.name)).toContain('code-review');
    expect(commands.every((c) => typeof c.description === 'string')).toBe(true);
    for await (const m of q) if (m.type === 'result') break;
    input.close();
    q.close();
  });
});
