/**
 * End to end: the compiled dist/moat in -p mode against the fake server
 * speaking each provider's wire format, with the same scenarios for every
 * adapter; then the fallback chain, the no-key messages, the config rules,
 * and requests shaped for the model (images, Gemini thinking, Mistral ids).
 * Run `bun run build` first (scripts/test.sh does).
 */
import { beforeEach, describe, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { OutputLine, type ResultLine } from '../../src/print/schema.ts';
import { httpError, reply, type ChatQuirks, type FakeAnthropic, type ReplyBuilder } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { fakeCallSignature } from '../support/fake-gemini-frames.ts';
import { makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';
import { editTool, readTool } from '../../src/tools/builtin/index.ts';

/** The tools' names as the binary offers them (they follow Claude Code's). */
const READ = readTool.name;
const EDIT = editTool.name;

let server: FakeAnthropic;
let sb: Sandbox;

serveFakeAnthropic((s) => (server = s));
beforeEach(() => {
  sb = makeSandbox(server.url);
  // The built-in providers, pointed at the fake server (the user config is where [providers] may be set).
  const config = join(sb.env.XDG_CONFIG_HOME!, 'moat', 'config.toml');
  mkdirSync(dirname(config), { recursive: true });
  writeFileSync(
    config,
    [
      `[providers.openai]`,
      `base_url = "${server.url}/v1"`,
      `[providers.gemini]`,
      `base_url = "${server.url}"`,
      `[providers.ollama]`,
      `base_url = "${server.url}/v1"`,
      '',
    ].join('\n'),
  );
  sb.env.OPENAI_API_KEY = 'sk-fake';
  sb.env.GEMINI_API_KEY = 'g-fake';
  expect(server.remaining()).toBe(0);
  server.requests.length = 0;
});

const moat = (args: string[], env: Record<string, string> = sb.env) => runMoat(args, { cwd: sb.cwd, env });
const bodyText = (i: number) => JSON.stringify(server.requests[i]?.body);

/** Chat Completions replies carry the quirks of real compatible servers; the other formats ignore them. */
const QUIRKS: ChatQuirks = { finishReason: 'stop', noIds: true, noUsage: true };

const ADAPTERS = [
  { name: 'Anthropic Messages', model: 'claude-sonnet-4-5', path: '/v1/messages' },
  { name: 'OpenAI Responses', model: 'openai/gpt-5.1', path: '/v1/responses' },
  { name: 'Chat Completions (Ollama, quirks on)', model: 'ollama/qwen3-coder', path: '/v1/chat/completions' },
  { name: 'Gemini', model: 'gemini/gemini-2.5-flash', path: '/v1beta/models/gemini-2.5-flash:streamGenerateContent' },
] as const;

for (const { name, model, path } of ADAPTERS) {
  describe(`moat -p --model ${model} (${name})`, () => {
    const r = (): ReplyBuilder => reply().chatQuirks(QUIRKS);
    const run = (prompt: string, extra: string[] = []) => moat(['-p', prompt, '--model', model, ...extra]);

    test('plain answer', async () => {
      server.script(r().text('Hello ').text('there.'));
      expect(await run('say hello')).toEqual({ code: 0, stdout: 'Hello there.\n', stderr: '' });
      expect(server.requests[0]?.path).toBe(path);
      expect(bodyText(0)).toContain('say hello');
    });

    test('read, then answer from the file', async () => {
      writeFileSync(join(sb.cwd, 'notes.txt'), 'alpha\nbeta\n');
      server.script(r().text('Reading.').toolUse(READ, { file_path: 'notes.txt' }, { fragments: 4 }), r().text('It has two lines.'));
      const res = await run('how many lines in notes.txt?');
      expect(res.stdout).toBe('It has two lines.\n');
      expect(res.code).toBe(0);
      expect(bodyText(1)).toContain('alpha');
      expect(bodyText(1)).toContain('beta');
    });

    test('an edit changes the file on disk', async () => {
      const file = join(sb.cwd, 'app.ts');
      writeFileSync(file, 'const port = 3000;\n');
      server.script(
        r().toolUse(READ, { file_path: 'app.ts' }),
        r().toolUse(EDIT, { file_path: 'app.ts', old_string: '3000', new_string: '8080' }, { fragments: 3 }),
        r().text('Changed the port.'),
      );
      const res = await run('use port 8080', ['--permission-mode', 'acceptEdits']);
      expect(res.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe('const port = 8080;\n');
    });

    test('parallel tool calls: both run, both results go back', async () => {
      writeFileSync(join(sb.cwd, 'a.txt'), 'from-a\n');
      writeFileSync(join(sb.cwd, 'b.txt'), 'from-b\n');
      server.script(
        r().toolUse(READ, { file_path: 'a.txt' }, { fragments: 2 }).toolUse(READ, { file_path: 'b.txt' }, { fragments: 3 }).chatQuirks({ interleave: true }),
        r().text('Both read.'),
      );
      expect((await run('read both')).stdout).toBe('Both read.\n');
      expect(bodyText(1)).toContain('from-a');
      expect(bodyText(1)).toContain('from-b');
    });

    test('thinking round trip: the reasoning goes back as this API wants it', async () => {
      writeFileSync(join(sb.cwd, 'x.txt'), 'x\n');
      server.script(r().thinking('I should read x.', 'sig-e2e').toolUse(READ, { file_path: 'x.txt' }), r().text('Read it.'));
      expect((await run('read x')).stdout).toBe('Read it.\n');
      const second = bodyText(1);
      if (model.startsWith('claude')) expect(second).toContain('"signature":"sig-e2e"');
      if (model.startsWith('openai/')) expect(second).toContain('"encrypted_content":"sig-e2e"');
      if (model.startsWith('gemini/')) {
        expect(second).toContain('"thoughtSignature":"sig-e2e"');
        expect(second).toContain(`"thoughtSignature":"${fakeCallSignature(READ, 0)}"`);
      }
      if (model.startsWith('ollama/')) expect(second).not.toContain('I should read x.');
    });

    test('max_tokens: an automatic continue', async () => {
      server.script(r().text('part one').stop('max_tokens'), r().text('part two'));
      const res = await run('write a lot');
      expect(res.code).toBe(0);
      expect(server.requests.length).toBe(2);
      expect(bodyText(1)).toContain('output token limit');
    });

    test('429 and 5xx are retried', async () => {
      server.script(httpError(429, { retryAfter: 0 }), httpError(503), r().text('recovered'));
      expect((await run('hi')).stdout).toBe('recovered\n');
      expect(server.requests.length).toBe(3);
    });

    test('a dropped connection mid-stream is retried without duplicating output', async () => {
      server.script(r().text('cut off').drop(), r().text('fine'));
      const res = await run('hi', ['--output-format', 'stream-json']);
      expect(res.code).toBe(0);
      const lines = res.stdout.trim().split('\n').map((l) => OutputLine.parse(JSON.parse(l)));
      expect(lines.filter((l) => l.type === 'assistant').length).toBe(1);
      expect((lines.at(-1) as ResultLine).result).toBe('fine');
    });
  });
}

describe('fallback', () => {
  test('the first model answers 529 until its retries are spent; the second completes; both models\' usage is shown', async () => {
    server.script(
      ...Array.from({ length: 5 }, () => httpError(529)),
      reply().text('from the fallback').usage({ input: 40, output: 9 }),
    );
    const res = await moat(['-p', 'hi', '--fallback-model', 'openai/gpt-5.1', '--output-format', 'stream-json']);
    expect(res.code).toBe(0);
    expect(server.requests.map((q) => q.path)).toEqual([...Array.from({ length: 5 }, () => '/v1/messages'), '/v1/responses']);
    const lines = res.stdout.trim().split('\n').map((l) => OutputLine.parse(JSON.parse(l)));
    const fallback = lines.find((l) => l.type === 'system' && l.subtype === 'model_fallback');
    expect(fallback).toMatchObject({ from_model: 'claude-sonnet-4-5', to_model: 'openai/gpt-5.1' });
    const assistant = lines.find((l) => l.type === 'assistant');
    expect(assistant?.type === 'assistant' && assistant.message.model).toBe('openai/gpt-5.1');
    const result = lines.at(-1) as ResultLine;
    expect(result.result).toBe('from the fallback');
    expect(Object.keys(result.modelUsage ?? {}).sort()).toEqual(['claude-sonnet-4-5', 'openai/gpt-5.1']);
    expect(result.modelUsage?.['openai/gpt-5.1']).toMatchObject({ inputTokens: 40, outputTokens: 9, contextWindow: 400_000, maxOutputTokens: 128_000 });
    expect(result.modelUsage?.['openai/gpt-5.1']?.costUSD).toBeCloseTo((40 * 1.25 + 9 * 10) / 1e6, 12);
    expect(result.modelUsage?.['claude-sonnet-4-5']).toMatchObject({ inputTokens: 0, outputTokens: 0, costUSD: 0 });
  });

  test('fallback = [...] in config, and --verbose says so on stderr; a bad request does not fall back', async () => {
    const config = join(sb.env.XDG_CONFIG_HOME!, 'moat', 'config.toml');
    // A top-level key goes before the first table.
    writeFileSync(config, `fallback = ["ollama/qwen3-coder"]\n${readFileSync(config, 'utf8')}`);
    server.script(...Array.from({ length: 5 }, () => httpError(503)), reply().text('local answer'));
    const res = await moat(['-p', 'hi', '--verbose']);
    expect(res.stdout).toBe('local answer\n');
    expect(res.stderr).toContain('switching to ollama/qwen3-coder');

    server.requests.length = 0;
    server.script(httpError(400, { message: 'prompt is too long' }));
    const bad = await moat(['-p', 'hi']);
    expect(bad.code).toBe(1);
    expect(server.requests.length).toBe(1);
  });
});

describe('choosing a model', () => {
  test('no key for the chosen provider: one line naming the variable and the local way out', async () => {
    const env = { ...sb.env };
    delete (env as Record<string, string | undefined>).OPENAI_API_KEY;
    const res = await moat(['-p', 'hi', '--model', 'openai/gpt-5.1'], env);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe('moat: no API key for openai: set OPENAI_API_KEY, or run a local model with no key: --model ollama/<name>\n');
  });

  test('a local model needs no key at all', async () => {
    const env = { ...sb.env };
    for (const k of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY']) delete (env as Record<string, string | undefined>)[k];
    server.script(reply().text('local'));
    expect((await moat(['-p', 'hi', '--model', 'ollama/qwen3-coder'], env)).stdout).toBe('local\n');
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer no-key');
  });

  test('an unknown provider is a usage error naming the known ones', async () => {
    const res = await moat(['-p', 'hi', '--model', 'nope/x']);
    expect(res.code).toBe(2);
    expect(res.stderr.trim().split('\n').length).toBe(1);
    expect(res.stderr).toContain('unknown provider "nope"');
  });

  test('a project config cannot redirect a provider (and so the user\'s key)', async () => {
    mkdirSync(join(sb.cwd, '.moat'), { recursive: true });
    writeFileSync(join(sb.cwd, '.moat', 'config.toml'), '[providers.openai]\nbase_url = "http://evil.example/v1"\n');
    const res = await moat(['-p', 'hi', '--model', 'openai/gpt-5.1']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('.moat/config.toml:1: providers: providers can only be set in the user config');
    rmSync(join(sb.cwd, '.moat'), { recursive: true });
  });
});

describe('moat models', () => {
  test('lists each provider, whether it answers, and its models with limits and prices', async () => {
    const res = await moat(['models']);
    expect(res.code).toBe(0);
    const lines = res.stdout.split('\n');
    // Pointed at the fake server: its list endpoint answers for every format.
    expect(lines).toContain(`ollama  openai-chat  ${server.url}/v1  — 1 models listed`);
    expect(lines).toContain(`gemini  gemini  ${server.url}  — 1 models listed`);
    expect(res.stdout).toContain('ollama/fake-model');
    expect(res.stdout).toContain('gemini/gemini-fake');
    expect(res.stdout).toMatch(/\* anthropic\/claude-sonnet-4-5 +200k ctx +64k out +\$3\/\$15 per Mtok \(cache \$0\.3 read, \$3\.75 write\)/);
    expect(res.stdout).toMatch(/openai\/gpt-5\.1 +400k ctx +128k out +\$1\.25\/\$10/);
    // No key, no request; not running, one line.
    expect(res.stdout).toContain('openrouter  openai-chat  https://openrouter.ai/api/v1  — no key (set OPENROUTER_API_KEY)');
    expect(res.stdout).toMatch(/vllm  openai-chat  http:\/\/127\.0\.0\.1:8000\/v1  — not reachable: /);
  });
});

describe('switching provider mid-session', () => {
  test('--continue on another vendor: the history goes over, the old vendor\'s thinking stays behind, tool ids match', async () => {
    writeFileSync(join(sb.cwd, 'notes.txt'), 'alpha\n');
    server.script(
      reply().thinking('Anthropic-only reasoning.', 'sig-ant').toolUse(READ, { file_path: 'notes.txt' }, { id: 'toolu_keep01' }),
      reply().text('It says alpha.'),
      reply().text('Still alpha, says GPT.'),
    );
    expect((await moat(['-p', 'what does notes.txt say?'])).stdout).toBe('It says alpha.\n');
    const res = await moat(['-p', 'and now?', '--continue', '--model', 'openai/gpt-5.1']);
    expect(res.stdout).toBe('Still alpha, says GPT.\n');
    expect(server.requests[2]?.path).toBe('/v1/responses');
    const input = (server.requests[2]?.body as { input: Record<string, unknown>[] }).input;
    expect(JSON.stringify(input)).not.toContain('Anthropic-only reasoning.');
    const call = input.find((i) => i['type'] === 'function_call');
    const output = input.find((i) => i['type'] === 'function_call_output');
    expect(call).toMatchObject({ call_id: 'toolu_keep01', name: READ });
    expect(output).toMatchObject({ call_id: 'toolu_keep01' });
    expect(String(output?.['output'])).toContain('alpha');
  });

  test('a model described without images gets a placeholder for them, the user one line, and the run goes on', async () => {
    const config = join(sb.env.XDG_CONFIG_HOME!, 'moat', 'config.toml');
    writeFileSync(config, `${readFileSync(config, 'utf8')}[providers.ollama.models."text-only"]\nimages = false\ncontext_window = 32768\n`);
    // A PNG the model would get from the read tool.
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    writeFileSync(join(sb.cwd, 'pixel.png'), png);
    server.script(reply().toolUse(READ, { file_path: 'pixel.png' }), reply().text('I cannot see images.'));
    const res = await moat(['-p', 'look at pixel.png', '--model', 'ollama/text-only']);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('I cannot see images.\n');
    expect(res.stderr).toBe('moat: ollama/text-only does not accept images: they are sent as "[image omitted]" (/model switches to a model that takes them)\n');
    expect(bodyText(1)).toContain('[image omitted: ollama/text-only does not accept images]');
    expect(bodyText(1)).not.toContain('iVBORw0KGgo');
  });

  test('--continue on Mistral: another vendor\'s tool ids are mapped as Mistral requires, and the answer comes', async () => {
    const config = join(sb.env.XDG_CONFIG_HOME!, 'moat', 'config.toml');
    writeFileSync(config, `${readFileSync(config, 'utf8')}[providers.mistral]\nbase_url = "${server.url}/v1"\n`);
    writeFileSync(join(sb.cwd, 'notes.txt'), 'alpha\n');
    server.script(
      reply().toolUse(READ, { file_path: 'notes.txt' }, { id: 'toolu_01A09q90qw90lq917835lq9' }),
      reply().text('It says alpha.'),
      reply().text('Mistral agrees.'),
    );
    expect((await moat(['-p', 'what does notes.txt say?'])).stdout).toBe('It says alpha.\n');
    const res = await moat(['-p', 'sure?', '--continue', '--model', 'mistral/mistral-large-latest'], { ...sb.env, MISTRAL_API_KEY: 'm-fake' });
    expect(res.stdout).toBe('Mistral agrees.\n');
    expect(res.code).toBe(0);
    const messages = (server.requests[2]?.body as { messages: { role: string; tool_call_id?: string; tool_calls?: { id: string }[] }[] }).messages;
    const call = messages.flatMap((m) => m.tool_calls ?? [])[0]?.id;
    expect(call).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(messages.find((m) => m.role === 'tool')?.tool_call_id).toBe(call);
  });
});

describe('models that need their request shaped', () => {
  test('Gemini 2.0 Flash, which does not think, gets no thinking config (the API would answer 400)', async () => {
    server.script(reply().text('Hello from 2.0.'));
    const res = await moat(['-p', 'hi', '--model', 'gemini/gemini-2.0-flash', '--max-thinking-tokens', '4096']);
    expect(res).toEqual({ code: 0, stdout: 'Hello from 2.0.\n', stderr: '' });
    expect(bodyText(0)).not.toContain('thinkingConfig');
  });

  test('a fallback without its key: one line at start naming the variable, and the run goes on', async () => {
    const env = { ...sb.env };
    delete (env as Record<string, string | undefined>).OPENAI_API_KEY;
    server.script(reply().text('fine'));
    const res = await moat(['-p', 'hi', '--fallback-model', 'openai/gpt-5.1,ollama/qwen3-coder'], env);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe('fine\n');
    expect(res.stderr).toBe('moat: fallback model openai/gpt-5.1 has no API key: set OPENAI_API_KEY, or a turn that falls back to it will fail\n');
  });
});
