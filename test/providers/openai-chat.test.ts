/**
 * Chat Completions against what real OpenAI-compatible servers send besides
 * api.openai.com's own stream: every quirk alone, and all at once; then
 * OpenAI's refusals and the error bodies of vLLM, llama.cpp, Mistral and Ollama.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { BUILTIN_PROVIDERS, ModelRouter, type ProviderEvent, type ProviderRequest } from '../../src/providers/index.ts';
import { httpError, reply, startFakeAnthropic, type ChatQuirks, type FakeAnthropic } from '../support/fake-anthropic.ts';

let server: FakeAnthropic;
let router: ModelRouter;

beforeAll(async () => {
  server = await startFakeAnthropic();
  router = new ModelRouter({ providers: { ...BUILTIN_PROVIDERS, vllm: { ...BUILTIN_PROVIDERS['vllm']!, baseUrl: `${server.url}/v1` } }, env: {} });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  expect(server.remaining()).toBe(0);
});

const REQUEST: ProviderRequest = { model: 'vllm/qwen3', system: 'sys', messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }], tools: [], maxTokens: 100 };

async function run(quirks: ChatQuirks, build = (r: ReturnType<typeof reply>) => r) {
  server.script(build(reply()).chatQuirks(quirks));
  const events: ProviderEvent[] = [];
  for await (const e of router.stream(REQUEST, { signal: new AbortController().signal, idleTimeoutMs: 2000 })) events.push(e);
  const last = events.at(-1);
  if (last?.type !== 'stop') throw new Error(`expected stop, got ${JSON.stringify(last)}`);
  return { events, stop: last };
}

const twoCalls = (r: ReturnType<typeof reply>) =>
  r.text('On it.').toolUse('Read', { file_path: 'a.ts' }, { id: 'toolu_1', cuts: [1, 5, 9] }).toolUse('Grep', { pattern: 'x"y' }, { id: 'toolu_2', fragments: 3 });

const CALLS = [
  { name: 'Read', input: { file_path: 'a.ts' } },
  { name: 'Grep', input: { pattern: 'x"y' } },
];

function calls(stop: Extract<ProviderEvent, { type: 'stop' }>) {
  return stop.message.content.filter((p) => p.type === 'tool_use').map((p) => (p.type === 'tool_use' ? { name: p.name, input: p.input } : null));
}

describe('Chat Completions quirks', () => {
  test('the request: system first, stream_options.include_usage, tools as functions', async () => {
    await run({}, (r) => r.text('x'));
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(body['stream']).toBe(true);
    expect(body['stream_options']).toEqual({ include_usage: true });
    expect(body['messages']).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'go' },
    ]);
    expect(server.requests[0]?.path).toBe('/v1/chat/completions');
    expect(server.requests[0]?.headers['authorization']).toBe('Bearer no-key');
  });

  test('well-behaved stream: calls by index, ids and names once, arguments in fragments', async () => {
    const { stop, events } = await run({}, twoCalls);
    expect(stop.reason).toBe('tool_use');
    expect(calls(stop)).toEqual(CALLS);
    expect(stop.message.content.map((p) => (p.type === 'tool_use' ? p.id : p.type))).toEqual(['text', 'call_1', 'call_2']);
    // The first call streams live: start, then its fragments as they came.
    const deltas = events.filter((e) => e.type === 'tool_use_delta' && e.index === 1).map((e) => (e.type === 'tool_use_delta' ? e.partialJson : ''));
    expect(deltas).toEqual(['{', '"fil', 'e_pa', 'th":"a.ts"}']);
  });

  test('interleaved calls: fragments alternating between two calls', async () => {
    const { stop } = await run({ interleave: true }, twoCalls);
    expect(calls(stop)).toEqual(CALLS);
  });

  test('missing ids are made up, distinct, and kept', async () => {
    const { stop } = await run({ noIds: true }, twoCalls);
    const ids = stop.message.content.flatMap((p) => (p.type === 'tool_use' ? [p.id] : []));
    expect(ids.length).toBe(2);
    expect(new Set(ids).size).toBe(2);
    for (const id of ids) expect(id).toMatch(/^call_moat_/);
  });

  test('arguments as one whole string', async () => {
    expect(calls((await run({ wholeArguments: true }, twoCalls)).stop)).toEqual(CALLS);
  });

  test('finish_reason "stop" with tool calls still means tool_use', async () => {
    expect((await run({ finishReason: 'stop' }, twoCalls)).stop.reason).toBe('tool_use');
  });

  test('finish_reason absent: [DONE] ends the message', async () => {
    const { stop } = await run({ finishReason: 'absent' }, (r) => r.text('hello'));
    expect(stop.reason).toBe('end_turn');
    expect(stop.message.content).toEqual([{ type: 'text', text: 'hello' }]);
  });

  test('no [DONE] after the finish reason: the end of the body ends the message', async () => {
    expect((await run({ noDone: true }, (r) => r.text('hello'))).stop.reason).toBe('end_turn');
  });

  test('no usage: zero, not a failure', async () => {
    expect((await run({ noUsage: true }, (r) => r.text('hello'))).stop.usage).toEqual({ inputTokens: 0, outputTokens: 0, cacheCreationInputTokens: 0, cacheReadInputTokens: 0 });
  });

  test('reasoning_content and reasoning both stream as thinking', async () => {
    for (const reasoningField of ['reasoning_content', 'reasoning'] as const) {
      const { stop } = await run({ reasoningField }, (r) => r.thinking('hmm, ', 'unused', { chunkSize: 2 }).text('answer'));
      expect(stop.message.content).toEqual([
        { type: 'thinking', thinking: 'hmm, ', signature: '', source: 'openai-chat' },
        { type: 'text', text: 'answer' },
      ]);
    }
  });

  test('every quirk at once', async () => {
    const { stop } = await run({ noUsage: true, finishReason: 'absent', noIds: true, interleave: true, noDone: false, reasoningField: 'reasoning' }, (r) =>
      twoCalls(r.thinking('first ', 's')),
    );
    expect(stop.reason).toBe('tool_use');
    expect(calls(stop)).toEqual(CALLS);
  });

  test('a body that ends with neither finish reason nor [DONE] is a truncated stream', async () => {
    server.script(reply().text('half').chatQuirks({ finishReason: 'absent', noDone: true }));
    const events: ProviderEvent[] = [];
    for await (const e of router.stream(REQUEST, { signal: new AbortController().signal, idleTimeoutMs: 2000 })) events.push(e);
    const last = events.at(-1);
    expect(last?.type === 'error' && last.error.kind).toBe('stream');
  });
});

describe('Chat Completions refusals and errors', () => {
  test('delta.refusal: the refusal is the answer\'s text, and the message stops as a refusal', async () => {
    const { stop } = await run({ refusal: true }, (r) => r.text("I'm sorry, ", { chunkSize: 6 }).text("I can't help with that.").stop('refusal'));
    expect(stop.reason).toBe('refusal');
    expect(stop.message.content).toEqual([{ type: 'text', text: "I'm sorry, I can't help with that." }]);
  });

  /** What compatible servers answer to a conversation longer than the model's window, each in its own shape. */
  const OVERFLOWS = [
    {
      server: 'vLLM',
      body: { object: 'error', message: "This model's maximum context length is 32768 tokens. However, you requested 40960 tokens (36864 in the messages, 4096 in the completion). Please reduce the length of the messages or completion.", type: 'BadRequestError', param: null, code: 400 },
      words: "This model's maximum context length is 32768 tokens",
    },
    {
      server: 'llama.cpp',
      body: { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 40960, n_ctx: 32768 } },
      words: 'the request exceeds the available context size',
    },
    {
      server: 'Mistral',
      body: { object: 'error', message: 'Prompt contains 40960 tokens and 0 draft tokens, too large for model with 32768 maximum context length', type: 'invalid_request_error', param: null, code: null },
      words: 'too large for model with 32768 maximum context length',
    },
  ];
  for (const { server: name, body, words } of OVERFLOWS) {
    test(`${name}'s context overflow: a final bad_request with the server's words and what to do`, async () => {
      server.script(httpError(400, { rawBody: JSON.stringify(body) }));
      const events: ProviderEvent[] = [];
      for await (const e of router.stream(REQUEST, { signal: new AbortController().signal, idleTimeoutMs: 2000 })) events.push(e);
      const last = events.at(-1);
      if (last?.type !== 'error') throw new Error('expected an error');
      expect(last.error).toMatchObject({ kind: 'bad_request', reason: 'context_too_long', status: 400 });
      expect(last.error.message).toContain(words);
      // A local server's real window may be smaller than the one moat assumes for a model nobody described.
      expect(last.error.message).toContain("set its context_window in config so moat compacts in time");
    });
  }

  test('Ollama\'s bare string error reaches the user as the server said it', async () => {
    server.script(httpError(404, { rawBody: JSON.stringify({ error: 'model "qwen9" not found, try pulling it first' }) }));
    const events: ProviderEvent[] = [];
    for await (const e of router.stream(REQUEST, { signal: new AbortController().signal, idleTimeoutMs: 2000 })) events.push(e);
    const last = events.at(-1);
    expect(last?.type === 'error' && last.error.message).toBe('OpenAI-compatible API error 404: model "qwen9" not found, try pulling it first');
  });
});
