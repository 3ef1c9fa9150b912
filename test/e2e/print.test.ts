/**
 * End to end: the compiled dist/moat in -p mode against the scripted fake
 * Anthropic server, in a throwaway HOME. Run `bun run build` first
 * (scripts/test.sh does).
 */
import { beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OutputLine, ResultLine } from '../../src/print/schema.ts';
import { contextTooLong, httpError, reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { MOAT_TEST_BIN, makeSandbox, runMoat, spawnMoat, waitUntil, type Sandbox } from '../support/run-moat.ts';

interface WireMessage {
  role: string;
  content: { type: string; text?: string; tool_use_id?: string; content?: unknown; is_error?: boolean }[];
}
const bodyOf = (server: FakeAnthropic, i: number) => server.requests[i]!.body as { messages: WireMessage[]; system: unknown; tools: { name: string }[] };
/** The tool results in the last message of request i (the API omits is_error when false). */
const toolResults = (server: FakeAnthropic, i: number) =>
  bodyOf(server, i)
    .messages.at(-1)!
    .content.filter((c) => c.type === 'tool_result')
    .map((c) => ({ ...c, is_error: c.is_error === true }));
const resultText = (c: { content?: unknown }) =>
  typeof c.content === 'string' ? c.content : JSON.stringify(c.content);

let server: FakeAnthropic;
let sb: Sandbox;

serveFakeAnthropic((s) => (server = s));
beforeEach(() => {
  sb = makeSandbox(server.url);
  expect(server.remaining()).toBe(0);
  server.requests.length = 0;
});

const moat = (args: string[], extra: { stdin?: string; env?: Record<string, string>; bin?: string } = {}) =>
  runMoat(args, { cwd: sb.cwd, env: { ...sb.env, ...extra.env }, stdin: extra.stdin, ...(extra.bin === undefined ? {} : { bin: extra.bin }) });
/** The test build, whose retry backoff base the tests shorten to 20 ms (dist/moat waits 1 s, 2 s, …). */
const retrying = { bin: MOAT_TEST_BIN };

describe('moat -p', () => {
  test('a plain answer goes to stdout, nothing else', async () => {
    server.script(reply().text('Hello ').text('there.'));
    const r = await moat(['-p', 'say hello']);
    expect(r).toEqual({ code: 0, stdout: 'Hello there.\n', stderr: '' });
    const body = bodyOf(server, 0);
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'say hello', cache_control: { type: 'ephemeral' } }] }] as never);
  });

  test('the task can come on stdin, and stdin is appended to an argument prompt', async () => {
    server.script(reply().text('one'), reply().text('two'));
    expect((await moat(['-p'], { stdin: 'task from stdin\n' })).stdout).toBe('one\n');
    expect((await moat(['-p', 'explain this'], { stdin: 'const x = 1;\n' })).stdout).toBe('two\n');
    const texts = [0, 1].map((i) => bodyOf(server, i).messages[0]!.content[0]!.text);
    expect(texts).toEqual(['task from stdin', 'explain this\n\nconst x = 1;']);
  });

  test('read then answer: the file content goes back to the model', async () => {
    writeFileSync(join(sb.cwd, 'notes.txt'), 'alpha\nbeta\n');
    server.script(reply().text('Reading.').toolUse('Read', { file_path: 'notes.txt' }, { fragments: 4 }).stop('tool_use'), reply().text('It has two lines.'));
    const r = await moat(['-p', 'how many lines in notes.txt?']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('It has two lines.\n');
    const results = toolResults(server, 1);
    expect(results.length).toBe(1);
    expect(results[0]!.is_error).toBe(false);
    expect(resultText(results[0]!)).toContain('alpha');
    expect(resultText(results[0]!)).toContain('beta');
  });

  test('an edit changes the file on disk under --permission-mode acceptEdits', async () => {
    const file = join(sb.cwd, 'app.ts');
    writeFileSync(file, 'const port = 3000;\n');
    server.script(
      reply().toolUse('Read', { file_path: 'app.ts' }).stop('tool_use'),
      reply().toolUse('Edit', { file_path: 'app.ts', old_string: '3000', new_string: '8080' }).stop('tool_use'),
      reply().text('Changed the port.'),
    );
    const r = await moat(['-p', 'use port 8080', '--permission-mode', 'acceptEdits']);
    expect(r.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('const port = 8080;\n');
    expect(toolResults(server, 2).map((c) => c.is_error)).toEqual([false]);
  });

  test('the same edit is denied in default mode, with a hint the model can relay', async () => {
    const file = join(sb.cwd, 'app.ts');
    writeFileSync(file, 'const port = 3000;\n');
    server.script(
      reply().toolUse('Read', { file_path: 'app.ts' }).stop('tool_use'),
      reply().toolUse('Edit', { file_path: 'app.ts', old_string: '3000', new_string: '8080' }).stop('tool_use'),
      reply().text('I could not edit.'),
    );
    const r = await moat(['-p', 'use port 8080']);
    expect(r.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('const port = 3000;\n');
    const [denied] = toolResults(server, 2);
    expect(denied!.is_error).toBe(true);
    expect(resultText(denied!)).toContain('acceptEdits');
  });

  test('bash runs read-only in default mode; writing asks (denied in -p) and is allowed by --allowedTools', async () => {
    server.script(reply().toolUse('Bash', { command: 'echo hi > made.txt' }).stop('tool_use'), reply().text('refused'));
    await moat(['-p', 'make a file']);
    expect(existsSync(join(sb.cwd, 'made.txt'))).toBe(false);
    const [refused] = toolResults(server, 1);
    expect(refused!.is_error).toBe(true);
    expect(resultText(refused!)).toContain('the sandbox is read-only for this command; call Bash again with sandbox');

    server.requests.length = 0;
    server.script(reply().toolUse('Bash', { command: 'echo hi > made.txt', sandbox: 'workspace-write' }).stop('tool_use'), reply().text('denied'));
    await moat(['-p', 'make a file']);
    expect(existsSync(join(sb.cwd, 'made.txt'))).toBe(false);
    const [denied] = toolResults(server, 1);
    expect(denied!.is_error).toBe(true);
    expect(resultText(denied!)).toContain('--allowedTools');

    server.requests.length = 0;
    server.script(reply().toolUse('Bash', { command: 'echo hi' }).stop('tool_use'), reply().text('ran'));
    const r = await moat(['-p', 'say hi', '--allowedTools', 'Bash(echo:*)']);
    expect(r.stdout).toBe('ran\n');
    const [ok] = toolResults(server, 1);
    expect(ok!.is_error).toBe(false);
    expect(resultText(ok!)).toContain('hi');
  });

  test('a chained command does not slip past a prefix rule', async () => {
    server.script(reply().toolUse('Bash', { command: 'echo ok && touch pwned' }).stop('tool_use'), reply().text('done'));
    await moat(['-p', 'x', '--allowedTools', 'Bash(echo:*)']);
    expect(existsSync(join(sb.cwd, 'pwned'))).toBe(false);
    expect(toolResults(server, 1)[0]!.is_error).toBe(true);
  });

  test('--output-format json prints one result object', async () => {
    server.script(reply().text('42').usage({ input: 100, output: 7, cacheRead: 50, cacheCreation: 10 }));
    const r = await moat(['-p', 'answer', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const obj = ResultLine.parse(JSON.parse(r.stdout));
    expect(obj).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: '42',
      num_turns: 1,
      stop_reason: 'end_turn',
      usage: { input_tokens: 100, output_tokens: 7, cache_read_input_tokens: 50, cache_creation_input_tokens: 10 },
    });
    expect(obj.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(obj.total_cost_usd).toBeGreaterThan(0);
    expect(r.stdout.trim().split('\n').length).toBe(1);
  });

  test('--output-format stream-json: every line matches the public schema; one assistant line per block sharing the message id', async () => {
    writeFileSync(join(sb.cwd, 'a.txt'), 'A\n');
    server.script(reply().text('Look').toolUse('Read', { file_path: 'a.txt' }, { fragments: 3 }).stop('tool_use'), reply().text('Done'));
    const r = await moat(['-p', 'go', '--output-format', 'stream-json']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => OutputLine.parse(JSON.parse(l)));
    const kinds = lines.map((l) => (l.type === 'system' ? `system/${l.subtype}` : l.type));
    // Without --include-partial-messages there are no stream_event lines.
    expect(kinds).toEqual(['system/init', 'assistant', 'assistant', 'user', 'assistant', 'result']);
    const ids = lines.flatMap((l) => (l.type === 'assistant' ? [l.message.id] : []));
    expect(ids[0]).toBe(ids[1]!);
    expect(ids[2]).not.toBe(ids[0]!);
    const user = lines.find((l) => l.type === 'user');
    expect(user?.type === 'user' && user.tool_use_result).toMatchObject({ type: 'text', file: { numLines: 1, startLine: 1, totalLines: 1 } });
    const result = lines.at(-1);
    expect(result?.type === 'result' && Object.keys(result.modelUsage)).toEqual(['claude-sonnet-4-5']);
    // The Agent SDK's ModelUsage type requires these three.
    expect(result?.type === 'result' && result.modelUsage['claude-sonnet-4-5']).toMatchObject({ webSearchRequests: 0, contextWindow: 200_000, maxOutputTokens: 64_000 });
    expect(result?.type === 'result' && result.permission_denials).toEqual([]);
    const sessionIds = new Set(lines.map((l) => l.session_id));
    expect(sessionIds.size).toBe(1);
  });

  test('--include-partial-messages: the whole Anthropic event sequence, with block indexes', async () => {
    server.script(reply().thinking('hm', 'sig').text('Hi').stop('end_turn'));
    const r = await moat(['-p', 'go', '--output-format', 'stream-json', '--include-partial-messages']);
    expect(r.code).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => OutputLine.parse(JSON.parse(l)))
      .flatMap((l) => (l.type === 'stream_event' ? [l.event] : []));
    expect(events.map((e) => `${e.type}${'index' in e ? `:${e.index}` : ''}${e.type === 'content_block_delta' ? `:${e.delta.type}` : ''}`)).toEqual([
      'message_start',
      'content_block_start:0',
      'content_block_delta:0:thinking_delta',
      'content_block_delta:0:signature_delta',
      'content_block_stop:0',
      'content_block_start:1',
      'content_block_delta:1:text_delta',
      'content_block_stop:1',
      'message_delta',
      'message_stop',
    ]);
  });

  test('--output-format json --verbose is the array of every line', async () => {
    server.script(reply().text('42'));
    const r = await moat(['-p', 'answer', '--output-format', 'json', '--verbose']);
    expect(r.code).toBe(0);
    const all = (JSON.parse(r.stdout) as unknown[]).map((l) => OutputLine.parse(l));
    expect(all.map((l) => l.type)).toEqual(['system', 'assistant', 'result']);
  });

  test('--disallowedTools with a bare name removes the tool from what the model sees', async () => {
    server.script(reply().text('ok'));
    await moat(['-p', 'go', '--disallowedTools', 'Bash', '--disallowed-tools', 'WebFetch']);
    const names = bodyOf(server, 0).tools.map((t) => t.name.toLowerCase());
    expect(names).not.toContain('bash');
    expect(names).not.toContain('web_fetch');
    expect(names).not.toContain('webfetch');
    expect(names).toContain('read');
  });

  test('a denied call is listed in permission_denials', async () => {
    server.script(reply().toolUse('Bash', { command: 'touch x', sandbox: 'workspace-write' }).stop('tool_use'), reply().text('could not'));
    const r = await moat(['-p', 'go', '--output-format', 'json']);
    expect(JSON.parse(r.stdout).permission_denials).toEqual([{ tool_name: 'Bash', tool_use_id: expect.any(String), tool_input: { command: 'touch x', sandbox: 'workspace-write' } }]);
  });

  test('--continue resumes the latest session in this folder with its history', async () => {
    server.script(reply().text('first answer'), reply().text('second answer'));
    const first = await moat(['-p', 'first question', '--output-format', 'json']);
    const second = await moat(['-p', 'second question', '-c', '--output-format', 'json']);
    expect(JSON.parse(second.stdout).session_id).toBe(JSON.parse(first.stdout).session_id);
    const msgs = bodyOf(server, 1).messages.map((m) => [m.role, m.content.map((c) => c.text).join('')]);
    expect(msgs).toEqual([
      ['user', 'first question'],
      ['assistant', 'first answer'],
      ['user', 'second question'],
    ]);
  });

  test('/compact [instructions] in -p is a command: the session is summarized now and the next prompt goes on from the summary', async () => {
    server.script(reply().text('first answer'), reply().text('SUMMARY: the user asked a first question.').usage({ input: 4_321, output: 12 }), reply().text('after'));
    const first = JSON.parse((await moat(['-p', 'first question', '--output-format', 'json'])).stdout);
    const compacted = await moat(['-p', '/compact keep the question', '-c', '--output-format', 'json']);
    expect(compacted.code).toBe(0);
    const result = JSON.parse(compacted.stdout);
    expect(result).toMatchObject({ session_id: first.session_id, subtype: 'success', result: 'context compacted: 2 messages summarized (4,321 → 12 tokens)' });
    // the summary request: the history, the standard request and the user's instructions; no skill warning
    const ask = bodyOf(server, 1).messages.at(-1)!.content.map((c) => c.text).join('');
    expect(ask).toContain('about to be replaced by a summary');
    expect(ask).toContain('keep the question');
    expect(compacted.stderr).toBe('');
    expect((await moat(['-p', 'next', '-c'])).stdout).toBe('after\n');
    const next = bodyOf(server, 2).messages.map((m) => m.content.map((c) => c.text).join(''));
    expect(next).toHaveLength(1);
    expect(next[0]).toContain('SUMMARY: the user asked a first question.');
    expect(next[0]).toContain('next');
  });

  test("stream-json: a compaction is Claude Code's compact_boundary line, with the tokens before and after", async () => {
    server.script(reply().text('first answer'), reply().text('SUMMARY: one question.').usage({ input: 4_321, output: 12 }));
    await moat(['-p', 'first question']);
    const r = await moat(['-p', '/compact', '-c', '--output-format', 'stream-json', '--verbose']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => OutputLine.parse(JSON.parse(l)));
    const boundary = lines.filter((l) => l.type === 'system' && l.subtype === 'compact_boundary');
    expect(boundary).toHaveLength(1);
    expect(boundary[0]).toMatchObject({ compact_metadata: { trigger: 'manual', pre_tokens: 4_321, post_tokens: 12 } });
    // Before the result, as Claude Code writes it.
    expect(lines.findIndex((l) => l.type === 'system' && l.subtype === 'compact_boundary')).toBeLessThan(lines.findIndex((l) => l.type === 'result'));
  });

  test('a conversation refused as too long is compacted once and the turn sent again', async () => {
    server.script(reply().text('first answer'), contextTooLong(), reply().text('SUMMARY: one question.'), reply().text('second answer'));
    await moat(['-p', 'first question']);
    const r = await moat(['-p', 'second question', '-c']);
    expect(r).toMatchObject({ code: 0, stdout: 'second answer\n' });
    expect(JSON.stringify(bodyOf(server, 3).messages)).toContain('SUMMARY: one question.');
  });

  test('--resume takes an id prefix', async () => {
    server.script(reply().text('a'), reply().text('b'));
    const first = JSON.parse((await moat(['-p', 'q1', '--output-format', 'json'])).stdout);
    const second = JSON.parse((await moat(['-p', 'q2', '-r', first.session_id.slice(0, 8), '--output-format', 'json'])).stdout);
    expect(second.session_id).toBe(first.session_id);
  });
});

describe('exit codes and failures', () => {
  test('no API key: one line, non-zero, no stack', async () => {
    const env = { ...sb.env };
    delete (env as Record<string, string | undefined>).ANTHROPIC_API_KEY;
    const r = await runMoat(['-p', 'hi'], { cwd: sb.cwd, env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n').length).toBe(1);
    expect(r.stderr).toContain('ANTHROPIC_API_KEY');
  });

  test('a bad flag is a usage error (2) in one line', async () => {
    const r = await moat(['-p', 'hi', '--max-turns', 'zero']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n').length).toBe(1);
    const r2 = await moat(['--frobnicate']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain("unknown option '--frobnicate'");
  });

  test('a bad config file names file, line and key, exit 2', async () => {
    mkdirSync(join(sb.cwd, '.moat'));
    writeFileSync(join(sb.cwd, '.moat', 'config.toml'), 'model = "x"\nmax_turns = "many"\n');
    const r = await moat(['-p', 'hi']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/config\.toml:2: max_turns: /);
  });

  test('--max-turns stops with exit 3', async () => {
    server.script(reply().toolUse('LS', {}).stop('tool_use'), reply().toolUse('LS', {}).stop('tool_use'));
    const r = await moat(['-p', 'loop', '--max-turns', '2', '--output-format', 'json']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: 'error_max_turns', num_turns: 2, is_error: true });
  });

  test('--max-budget-usd stops with exit 4', async () => {
    server.script(reply().toolUse('LS', {}).stop('tool_use').usage({ input: 1_000_000, output: 0 }));
    const r = await moat(['-p', 'spend', '--max-budget-usd', '0.5', '--output-format', 'json']);
    expect(r.code).toBe(4);
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: 'error_max_budget_usd', num_turns: 1 });
  });

  test('429 honours retry-after, then succeeds', async () => {
    server.script(httpError(429, { retryAfter: 1 }), reply().text('after wait'));
    const t0 = performance.now();
    const r = await moat(['-p', 'hi']);
    expect(r.stdout).toBe('after wait\n');
    expect(performance.now() - t0).toBeGreaterThan(950);
    expect(server.requests.length).toBe(2);
  });

  test('529 and 5xx retry with backoff; 401 fails at once with one line, on stdout as in Claude Code', async () => {
    server.script(httpError(529), httpError(503), reply().text('recovered'));
    expect((await moat(['-p', 'hi'], retrying)).stdout).toBe('recovered\n');
    expect(server.requests.length).toBe(3);

    server.requests.length = 0;
    server.script(httpError(401, { message: 'invalid x-api-key' }));
    const r = await moat(['-p', 'hi']);
    expect(r.code).toBe(1);
    expect(server.requests.length).toBe(1);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n').length).toBe(1);
    expect(r.stdout).toContain('401');
  });

  test('an error event mid-stream retries the whole request without duplicating output', async () => {
    server.script(reply().text('partial answer').streamError('overloaded_error'), reply().text('whole answer'));
    const r = await moat(['-p', 'hi', '--output-format', 'stream-json'], retrying);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => OutputLine.parse(JSON.parse(l)));
    const assistants = lines.filter((l) => l.type === 'assistant');
    expect(assistants.length).toBe(1);
    expect(lines.some((l) => l.type === 'system' && l.subtype === 'api_retry')).toBe(true);
    const result = lines.at(-1) as ResultLine;
    expect(result.result).toBe('whole answer');
    // The session holds the answer once.
    const exported = await moat(['sessions', 'export', result.session_id, '--format', 'json']);
    expect(exported.stdout.split('whole answer').length - 1).toBe(1);
    expect(exported.stdout).not.toContain('partial answer');
  });

  test('a dropped connection mid-stream retries', async () => {
    server.script(reply().text('cut').drop(), reply().text('fine'));
    expect((await moat(['-p', 'hi'], retrying)).stdout).toBe('fine\n');
  });

  test('a stalled stream is aborted after stream_idle_timeout and retried', async () => {
    mkdirSync(join(sb.cwd, '.moat'));
    writeFileSync(join(sb.cwd, '.moat', 'config.toml'), 'stream_idle_timeout = 1\n');
    server.script(reply().text('stuck').stall(), reply().text('unstuck'));
    const t0 = performance.now();
    const r = await moat(['-p', 'hi'], retrying);
    expect(r.stdout).toBe('unstuck\n');
    expect(performance.now() - t0).toBeGreaterThan(900);
  });

  test('SIGINT mid-stream saves the session and exits 130', async () => {
    server.script(reply().text('slow '.repeat(50), { chunkSize: 5, delayMs: 40 }));
    const proc = spawnMoat(['-p', 'hi', '--output-format', 'stream-json', '--include-partial-messages'], { cwd: sb.cwd, env: sb.env });
    let out = '';
    const reader = (async () => {
      for await (const chunk of proc.stdout) out += new TextDecoder().decode(chunk);
    })();
    await waitUntil(() => out.includes('text_delta'), 10_000, 'first delta');
    proc.kill('SIGINT');
    expect(await proc.exited).toBe(130);
    await reader;
    const last = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ type: 'result', subtype: 'error_during_execution', stop_reason: 'aborted' });
    const shown = await moat(['sessions', 'show', last.session_id]);
    expect(shown.stdout).toContain('slow');
  });

  test('kill -9 during a tool loses nothing finished; --continue works and the history is valid', async () => {
    server.script(reply().text('Running it.').toolUse('Bash', { command: 'sleep 29.917' }).stop('tool_use'));
    const proc = spawnMoat(['-p', 'run sleep', '--allowedTools', 'Bash(sleep:*)'], { cwd: sb.cwd, env: sb.env });
    // The assistant message is saved before the tool runs; wait until the tool is running.
    await waitUntil(() => Bun.spawnSync(['pgrep', '-f', 'sleep 29[.]917']).exitCode === 0, 10_000, 'the tool to start');
    proc.kill('SIGKILL');
    await proc.exited;
    Bun.spawnSync(['pkill', '-f', 'sleep 29[.]917']);
    // A killed moat's private temp folder stays until the next moat that runs a command sweeps it (the run below
    // runs none): removed here, so the run leaves nothing behind.
    for (const name of readdirSync(tmpdir())) if (name.startsWith(`moat-session-${proc.pid}-`)) rmSync(join(tmpdir(), name), { recursive: true, force: true });

    server.requests.length = 0;
    server.script(reply().text('Resumed fine.'));
    const r = await moat(['-p', 'go on', '-c']);
    expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: 0 });
    expect(r.stdout).toBe('Resumed fine.\n');
    const msgs = bodyOf(server, 0).messages;
    expect(msgs.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    const results = msgs[2]!.content.filter((c) => c.type === 'tool_result');
    expect(results.length).toBe(1);
    expect(results[0]!.is_error).toBe(true);
    expect(msgs[2]!.content.at(-1)!.text).toBe('go on');
  });

  test('two moat processes in one folder both finish and both are saved', async () => {
    server.script(reply().text('one', { chunkSize: 1, delayMs: 20 }), reply().text('two', { chunkSize: 1, delayMs: 20 }));
    const [a, b] = await Promise.all([moat(['-p', 'a', '--output-format', 'json']), moat(['-p', 'b', '--output-format', 'json'])]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const list = await moat(['sessions', 'list']);
    expect(list.stdout).toContain(JSON.parse(a.stdout).session_id);
    expect(list.stdout).toContain(JSON.parse(b.stdout).session_id);
  });
});
