/**
 * `moat --input-format stream-json` and the Claude Code flags, driven the
 * way a script drives them: JSON lines on stdin, the compiled binary, the
 * fake model server.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OutputLine } from '../../src/print/schema.ts';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { runMoat, type Sandbox } from '../support/run-moat.ts';

let server: FakeAnthropic;
let sb: Sandbox;

serveFakeAnthropic((s) => (server = s), (s) => (sb = s));

const SJ = ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'];
const user = (text: string) => JSON.stringify({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, session_id: '' });
const lines = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; subtype?: string; [k: string]: unknown });
const body = (i: number) => server.requests[i]!.body as { model: string; system: unknown; tools: { name: string }[]; messages: { role: string }[] };

describe('stream-json input', () => {
  test('two user lines are two turns with a result each, in one session; exit 0 when stdin closes', async () => {
    server.script(reply().text('one'), reply().text('two'));
    const r = await runMoat(SJ, { cwd: sb.cwd, env: sb.env, stdin: `${user('first')}\n${user('second')}\n` });
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    for (const l of out) OutputLine.parse(l);
    const results = out.filter((l) => l.type === 'result');
    expect(results.map((l) => l['result'])).toEqual(['one', 'two']);
    expect(new Set(out.map((l) => l['session_id'])).size).toBe(1);
    // The second turn carries the first: one conversation.
    expect(body(1).messages.length).toBe(3);
  });

  test('initialize: its system prompt additions reach the model; the reply lists commands and models', async () => {
    mkdirSync(join(sb.cwd, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(sb.cwd, '.claude', 'commands', 'fix-issue.md'), '---\ndescription: Fix an issue\nargument-hint: [number]\n---\nFix #$1.\n');
    server.script(reply().text('ok'));
    const init = JSON.stringify({ type: 'control_request', request_id: 'r1', request: { subtype: 'initialize', appendSystemPrompt: 'ALWAYS-ANSWER-IN-FRENCH' } });
    const r = await runMoat(SJ, { cwd: sb.cwd, env: sb.env, stdin: `${init}\n${user('hi')}\n` });
    expect(r.code).toBe(0);
    const reply1 = lines(r.stdout)[0]!;
    expect(reply1).toMatchObject({ type: 'control_response', response: { subtype: 'success', request_id: 'r1' } });
    const response = (reply1['response'] as { response: { commands: { name: string; argumentHint: string }[]; models: { value: string; description: string }[]; output_style: string } }).response;
    expect(response.commands.map((c) => c.name)).toContain('code-review');
    // A custom command's argument-hint, and the model router's models (every provider's), not a fixed list.
    expect(response.commands.find((c) => c.name === 'fix-issue')?.argumentHint).toBe('[number]');
    expect(response.models.map((m) => m.value)).toContain('claude-sonnet-4-5');
    expect(response.models.some((m) => m.value.startsWith('openai/'))).toBe(true);
    expect(response.models.find((m) => m.value === 'claude-sonnet-4-5')?.description).toContain('anthropic: ');
    expect(JSON.stringify(body(0).system)).toContain('ALWAYS-ANSWER-IN-FRENCH');
  });

  test('an unknown control request gets an error response; the session goes on', async () => {
    server.script(reply().text('ok'));
    const req = JSON.stringify({ type: 'control_request', request_id: 'x1', request: { subtype: 'seed_read_state' } });
    const r = await runMoat(SJ, { cwd: sb.cwd, env: sb.env, stdin: `${req}\n${user('hi')}\n` });
    expect(r.code).toBe(0);
    expect(lines(r.stdout)[0]).toEqual({
      type: 'control_response',
      response: { subtype: 'error', request_id: 'x1', error: 'moat does not handle control request "seed_read_state"' },
    });
    expect(lines(r.stdout).at(-1)).toMatchObject({ type: 'result', result: 'ok' });
  });

  test('a line that is not stream-json input: one line on stderr, exit 2', async () => {
    const r = await runMoat(SJ, { cwd: sb.cwd, env: sb.env, stdin: 'hello there\n' });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual(['moat: stream-json input: not JSON: hello there']);
  });

  test('set_model and set_permission_mode apply to the next turn', async () => {
    server.script(reply().text('a'), reply().text('b'));
    const setModel = JSON.stringify({ type: 'control_request', request_id: 'm', request: { subtype: 'set_model', model: 'claude-opus-4-5' } });
    const setMode = JSON.stringify({ type: 'control_request', request_id: 'p', request: { subtype: 'set_permission_mode', mode: 'plan' } });
    const r = await runMoat(SJ, { cwd: sb.cwd, env: sb.env, stdin: `${user('one')}\n${setModel}\n${setMode}\n${user('two')}\n` });
    expect(r.code).toBe(0);
    expect([body(0).model, body(1).model]).toEqual(['claude-sonnet-4-5', 'claude-opus-4-5']);
    // Plan mode offers only read-only tools (bash too: the OS sandbox keeps it read-only).
    expect(body(1).tools.map((t) => t.name)).not.toContain('Write');
    expect(body(1).tools.map((t) => t.name)).toContain('Bash');
    expect(body(0).tools.map((t) => t.name)).toContain('Write');
  });

  test('--replay-user-messages echoes each prompt as a user line before its turn', async () => {
    server.script(reply().text('ok'));
    const r = await runMoat([...SJ, '--replay-user-messages'], { cwd: sb.cwd, env: sb.env, stdin: `${user('echo me')}\n` });
    const out = lines(r.stdout);
    expect(out.map((l) => l.type)).toEqual(['system', 'user', 'assistant', 'result']);
    expect(out[1]).toMatchObject({ message: { role: 'user', content: [{ type: 'text', text: 'echo me' }] } });
  });
});

describe('Claude Code flags', () => {
  test('--session-id names the new session; --resume … --fork-session goes on in a new one with the history', async () => {
    server.script(reply().text('first'), reply().text('forked'));
    const id = '0f8c3a51-6c1e-4c55-9d5b-2b6f0c1d9e77';
    const a = await runMoat(['-p', 'q1', '--output-format', 'json', '--session-id', id], { cwd: sb.cwd, env: sb.env });
    expect(JSON.parse(a.stdout).session_id).toBe(id);
    const b = await runMoat(['-p', 'q2', '--output-format', 'json', '--resume', id, '--fork-session'], { cwd: sb.cwd, env: sb.env });
    const forked = JSON.parse(b.stdout).session_id as string;
    expect(forked).not.toBe(id);
    expect(body(1).messages.length).toBe(3);
    const original = await runMoat(['sessions', 'show', id], { cwd: sb.cwd, env: sb.env });
    expect(original.stdout).not.toContain('forked');
  });

  test('--no-session-persistence saves nothing', async () => {
    server.script(reply().text('gone'));
    const a = await runMoat(['-p', 'q', '--output-format', 'json', '--no-session-persistence'], { cwd: sb.cwd, env: sb.env });
    expect(a.code).toBe(0);
    const list = await runMoat(['sessions', 'list'], { cwd: sb.cwd, env: sb.env });
    expect(list.stdout).not.toContain(JSON.parse(a.stdout).session_id.slice(0, 8));
  });

  test('--tools limits the built-in tools; --agents adds a sub-agent definition', async () => {
    server.script(reply().text('ok'));
    const agents = JSON.stringify({ reviewer: { description: 'Reviews code', prompt: 'You review code.' } });
    const r = await runMoat(['-p', 'q', '--tools', 'read,grep', '--agents', agents, '--output-format', 'stream-json'], { cwd: sb.cwd, env: sb.env });
    expect(r.code).toBe(0);
    const names = body(0).tools.map((t) => t.name);
    expect(names.sort()).toEqual(['Grep', 'Read']);
    expect(lines(r.stdout)[0]).toMatchObject({ subtype: 'init', agents: expect.arrayContaining(['reviewer']) });
  });

  test('bad flag values are one usage line, exit 2', async () => {
    const cases: [string[], string][] = [
      [['--session-id', 'nope'], '--session-id must be a UUID'],
      [['--tools', 'read,frobnicate'], '--tools: unknown tool frobnicate'],
      [['--agents', '{"x": {"description": "d"}}'], '--agents: invalid agent definitions: x.prompt: '],
      [['--json-schema', '[1]'], '--json-schema: a JSON Schema is an object'],
      [['--permission-prompt-tool', 'mcp__x__y'], '--permission-prompt-tool mcp__x__y: only "stdio" is supported'],
    ];
    for (const [flags, message] of cases) {
      const r = await runMoat(['-p', 'q', ...flags], { cwd: sb.cwd, env: sb.env });
      expect([r.code, r.stderr.trim().split('\n').length]).toEqual([2, 1]);
      expect(r.stderr).toContain(message);
    }
  });

  test('--settings (JSON or a file): its deny rules and model apply', async () => {
    server.script(reply().toolUse('Bash', { command: 'echo hi' }).stop('tool_use'), reply().text('ok'), reply().text('ok'));
    const inline = JSON.stringify({ permissions: { deny: ['Bash(echo:*)'] }, model: 'claude-opus-4-5' });
    const r = await runMoat(['-p', 'q', '--settings', inline, '--allowedTools', 'Bash', '--output-format', 'json'], { cwd: sb.cwd, env: sb.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).permission_denials).toHaveLength(1);
    expect(body(0).model).toBe('claude-opus-4-5');
    writeFileSync(join(sb.cwd, 'settings.json'), JSON.stringify({ model: 'claude-haiku-4-5' }));
    await runMoat(['-p', 'q', '--settings', 'settings.json'], { cwd: sb.cwd, env: sb.env });
    expect(body(2).model).toBe('claude-haiku-4-5');
  });

  test('--settings and --setting-sources mistakes are one usage line', async () => {
    const bad: [string[], string][] = [
      [['--settings', '{"permissions": {"allow": "Read"}}'], '--settings: permissions.allow:'],
      [['--settings', 'missing.json'], '--settings missing.json: cannot read it'],
      [['--setting-sources', 'user,team'], '--setting-sources: unknown source team'],
    ];
    for (const [flags, message] of bad) {
      const r = await runMoat(['-p', 'q', ...flags], { cwd: sb.cwd, env: sb.env });
      expect([r.code, r.stderr.trim().split('\n').length]).toEqual([2, 1]);
      expect(r.stderr).toContain(message);
    }
  });

  test('--debug: progress lines on stderr, stdout unchanged', async () => {
    server.script(reply().toolUse('Bash', { command: 'touch x', sandbox: 'workspace-write' }).stop('tool_use'), reply().text('ok'));
    const r = await runMoat(['-p', 'q', '--debug', '--output-format', 'json'], { cwd: sb.cwd, env: sb.env });
    expect(JSON.parse(r.stdout)).toMatchObject({ result: 'ok' });
    expect(r.stderr).toContain('moat: turn 1');
    expect(r.stderr).toContain('Bash denied:');
  });

  test('--max-thinking-tokens turns thinking on with that budget; --dangerously-skip-permissions runs without asking', async () => {
    server.script(reply().toolUse('Bash', { command: 'touch made.txt' }).stop('tool_use'), reply().text('ok'));
    const r = await runMoat(['-p', 'q', '--max-thinking-tokens', '2048', '--dangerously-skip-permissions', '--output-format', 'json'], { cwd: sb.cwd, env: sb.env });
    expect(r.code).toBe(0);
    expect((server.requests[0]!.body as { thinking?: unknown }).thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(JSON.parse(r.stdout).permission_denials).toEqual([]);
    expect(existsSync(join(sb.cwd, 'made.txt'))).toBe(true);
  });

  test('--permission-mode dontAsk denies what would be asked, without asking', async () => {
    server.script(reply().toolUse('Bash', { command: 'touch x', sandbox: 'workspace-write' }).stop('tool_use'), reply().text('ok'));
    const r = await runMoat(['-p', 'q', '--permission-mode', 'dontAsk', '--output-format', 'json'], { cwd: sb.cwd, env: sb.env });
    expect(JSON.parse(r.stdout).permission_denials).toHaveLength(1);
  });

  test('dontAsk with --permission-prompt-tool stdio: the program is never sent can_use_tool and the call is denied', async () => {
    server.script(reply().toolUse('Write', { file_path: 'x.txt', content: 'x' }).stop('tool_use'), reply().text('ok'));
    const r = await runMoat([...SJ, '--permission-mode', 'dontAsk', '--permission-prompt-tool', 'stdio'], { cwd: sb.cwd, env: sb.env, stdin: `${user('write x')}\n` });
    expect(r.code).toBe(0);
    const out = lines(r.stdout);
    expect(out.filter((l) => l.type === 'control_request')).toEqual([]);
    expect(out.at(-1)).toMatchObject({ type: 'result', subtype: 'success', permission_denials: [{ tool_name: 'Write' }] });
    expect(existsSync(join(sb.cwd, 'x.txt'))).toBe(false);
  });

  test('--json-schema: structured_output in the json result', async () => {
    server.script(reply().toolUse('StructuredOutput', { n: 7 }).stop('tool_use'));
    const schema = JSON.stringify({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
    const r = await runMoat(['-p', 'q', '--json-schema', schema, '--output-format', 'json'], { cwd: sb.cwd, env: sb.env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: 'success', structured_output: { n: 7 }, num_turns: 1 });
  });

  test('--json-schema: no structured answer after the reminders is error_max_structured_output_retries', async () => {
    server.script(reply().text('a'), reply().text('b'), reply().text('c'), reply().text('d'));
    const schema = JSON.stringify({ type: 'object' });
    const r = await runMoat(['-p', 'q', '--json-schema', schema, '--output-format', 'json'], { cwd: sb.cwd, env: sb.env });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: 'error_max_structured_output_retries', is_error: true, num_turns: 4 });
  });
});
