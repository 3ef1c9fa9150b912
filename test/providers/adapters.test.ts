/**
 * The same scenarios against every wire format: each adapter, through the
 * model router, against the fake server speaking that format byte for byte.
 * What differs between formats (how thinking goes back, how usage is
 * counted) is asserted per format; everything else must be identical.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { createVertexProvider } from '../../src/providers/anthropic/vertex.ts';
import {
  BUILTIN_PROVIDERS,
  loadAdapter,
  ModelRouter,
  type AssistantMessage,
  type Message,
  type ProviderError,
  type ProviderEvent,
  type ProviderRequest,
} from '../../src/providers/index.ts';
import { contextTooLong, httpError, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { fakeCallSignature } from '../support/fake-gemini-frames.ts';

let server: FakeAnthropic;
let router: ModelRouter;
/** Stand-in Google credentials for Vertex. */
const VERTEX_AUTH = { projectId: 'proj-1', getRequestHeaders: async () => new Headers({ authorization: 'Bearer ya29.fake' }) };

beforeAll(async () => {
  server = await startFakeAnthropic();
  router = new ModelRouter({
    providers: {
      ...BUILTIN_PROVIDERS,
      anthropic: { ...BUILTIN_PROVIDERS['anthropic']!, baseUrl: server.url },
      openai: { ...BUILTIN_PROVIDERS['openai']!, baseUrl: `${server.url}/v1` },
      gemini: { ...BUILTIN_PROVIDERS['gemini']!, baseUrl: server.url },
      ollama: { ...BUILTIN_PROVIDERS['ollama']!, baseUrl: `${server.url}/v1` },
      bedrock: { ...BUILTIN_PROVIDERS['bedrock']!, baseUrl: server.url },
      vertex: { ...BUILTIN_PROVIDERS['vertex']!, baseUrl: `${server.url}/v1` },
    },
    env: { ANTHROPIC_API_KEY: 'sk-ant-fake', OPENAI_API_KEY: 'sk-fake', GEMINI_API_KEY: 'g-fake', AWS_REGION: 'us-west-2', AWS_BEARER_TOKEN_BEDROCK: 'bedrock-key' },
    // Vertex with stand-in Google credentials (application default credentials would need gcloud); the rest as shipped.
    load: (name, config, r) => (name === 'vertex' ? Promise.resolve(createVertexProvider(name, { baseURL: config.baseUrl!, region: 'us-east5', authClient: VERTEX_AUTH as never })) : loadAdapter(name, config, r)),
  });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  expect(server.remaining()).toBe(0);
});

/** One model per wire format; the OpenAI and Gemini ones reason, as the catalogue says. */
const FORMATS = [
  { format: 'anthropic', model: 'claude-sonnet-4-5', path: '/v1/messages' },
  { format: 'openai-responses', model: 'openai/gpt-5.1', path: '/v1/responses' },
  { format: 'openai-chat', model: 'ollama/qwen3-coder', path: '/v1/chat/completions' },
  { format: 'gemini', model: 'gemini/gemini-2.5-pro', path: '/v1beta/models/gemini-2.5-pro:streamGenerateContent' },
  { format: 'bedrock', model: 'bedrock/us.anthropic.claude-sonnet-4-5-20250929-v1:0', path: '/model/us.anthropic.claude-sonnet-4-5-20250929-v1:0/invoke-with-response-stream' },
  { format: 'vertex', model: 'vertex/claude-sonnet-4-5@20250929', path: '/v1/projects/proj-1/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict' },
] as const;

/** The words of each vendor's own context-overflow refusal, which the user still sees. */
const CONTEXT_WORDS: Record<(typeof FORMATS)[number]['format'], string> = {
  anthropic: 'prompt is too long: 208310 tokens > 200000 maximum',
  vertex: 'prompt is too long: 208310 tokens > 200000 maximum',
  bedrock: 'Input is too long for requested model',
  'openai-responses': 'Your input exceeds the context window of this model',
  'openai-chat': "This model's maximum context length is 128000 tokens",
  gemini: 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576)',
};

const TOOLS = [
  { name: 'Read', description: 'Read a file', inputSchema: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] } },
];

function request(model: string, messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }]): ProviderRequest {
  return { model, system: 'Be terse.', messages, tools: TOOLS, maxTokens: 1024 };
}

async function collect(r: ProviderRequest, o: { signal?: AbortSignal; idleTimeoutMs?: number } = {}): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const e of router.stream(r, { signal: o.signal ?? new AbortController().signal, idleTimeoutMs: o.idleTimeoutMs ?? 5000 })) events.push(e);
  return events;
}

function stopOf(events: ProviderEvent[]): Extract<ProviderEvent, { type: 'stop' }> {
  const e = events.at(-1);
  if (e?.type !== 'stop') throw new Error(`expected stop, got ${JSON.stringify(e)}`);
  return e;
}

function errorOf(events: ProviderEvent[]): Extract<ProviderEvent, { type: 'error' }> {
  const e = events.at(-1);
  if (e?.type !== 'error') throw new Error(`expected error, got ${JSON.stringify(e)}`);
  return e;
}

/** Tool ids are the server's (or made up where Gemini sends none); compare everything else. */
function withoutIds(m: AssistantMessage): unknown {
  return m.content.map((p) => (p.type === 'tool_use' ? { type: p.type, name: p.name, input: p.input } : p.type === 'thinking' ? { type: p.type, thinking: p.thinking } : p));
}

for (const { format, model, path } of FORMATS) {
  describe(`${format} adapter`, () => {
    test('plain answer: text, stop end_turn, usage with cache reads apart', async () => {
      server.script(reply().text('Hello ', {}).text('there.').usage({ input: 12, output: 7, cacheRead: 3 }));
      const events = await collect(request(model));
      const stop = stopOf(events);
      expect(stop.reason).toBe('end_turn');
      expect(stop.message.content.filter((p) => p.type === 'text').map((p) => (p.type === 'text' ? p.text : '')).join('')).toBe('Hello there.');
      expect(stop.usage).toEqual({ inputTokens: 12, outputTokens: 7, cacheCreationInputTokens: 0, cacheReadInputTokens: 3 });
      expect(events[0]?.type).toBe('message_start');
      expect(events.filter((e) => e.type === 'stop' || e.type === 'error').length).toBe(1);
      expect(server.requests[0]?.path).toBe(path);
    });

    test('a tool call in fragments, then its result goes back in the wire format', async () => {
      server.script(
        reply().text('Reading.').toolUse('Read', { file_path: 'notes.txt' }, { id: 'toolu_a1', fragments: 4 }),
        reply().text('Two lines.'),
      );
      const first = stopOf(await collect(request(model)));
      expect(first.reason).toBe('tool_use');
      expect(withoutIds(first.message)).toEqual([
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', name: 'Read', input: { file_path: 'notes.txt' } },
      ]);
      const call = first.message.content.find((p) => p.type === 'tool_use');
      if (call?.type !== 'tool_use') throw new Error('no call');
      const history: Message[] = [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        first.message,
        { role: 'user', content: [{ type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text: 'alpha\nbeta' }], isError: false }] },
      ];
      expect(stopOf(await collect(request(model, history))).reason).toBe('end_turn');
      const body = JSON.stringify(server.requests[1]?.body);
      expect(body).toContain('alpha\\nbeta');
      // The call and its result carry the same id on the wire.
      expect(body.split(call.id).length - 1).toBeGreaterThanOrEqual(2);
    });

    test('parallel tool calls arrive as separate, complete calls', async () => {
      server.script(reply().toolUse('Read', { file_path: 'a.txt' }, { fragments: 3 }).toolUse('Read', { file_path: 'b.txt' }, { fragments: 2 }));
      const stop = stopOf(await collect(request(model)));
      expect(stop.reason).toBe('tool_use');
      expect(withoutIds(stop.message)).toEqual([
        { type: 'tool_use', name: 'Read', input: { file_path: 'a.txt' } },
        { type: 'tool_use', name: 'Read', input: { file_path: 'b.txt' } },
      ]);
      const ids = stop.message.content.map((p) => (p.type === 'tool_use' ? p.id : ''));
      expect(new Set(ids).size).toBe(2);
    });

    test('thinking streams, and goes back to the same format as that format requires', async () => {
      server.script(reply().thinking('Let me think.', 'sig-123').text('Done.').toolUse('Read', { file_path: 'x' }), reply().text('ok'));
      const first = stopOf(await collect(request(model)));
      const thinking = first.message.content.find((p) => p.type === 'thinking');
      expect(thinking?.type === 'thinking' && thinking.thinking).toBe('Let me think.');
      const call = first.message.content.find((p) => p.type === 'tool_use');
      if (call?.type !== 'tool_use') throw new Error('no call');
      await collect(
        request(model, [
          { role: 'user', content: [{ type: 'text', text: 'hi' }] },
          first.message,
          { role: 'user', content: [{ type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text: 'x' }], isError: false }] },
        ]),
      );
      const body = JSON.stringify(server.requests[1]?.body);
      switch (format) {
        case 'anthropic':
        case 'bedrock':
        case 'vertex':
          expect(body).toContain('"type":"thinking","thinking":"Let me think.","signature":"sig-123"');
          break;
        case 'openai-responses':
          expect(body).toContain('"type":"reasoning","summary":[{"type":"summary_text","text":"Let me think."}],"encrypted_content":"sig-123"');
          expect((server.requests[0]?.body as { include?: string[] }).include).toEqual(['reasoning.encrypted_content']);
          break;
        case 'openai-chat':
          // Servers that stream reasoning_content do not take it back.
          expect(body).not.toContain('Let me think.');
          break;
        case 'gemini':
          expect(body).toContain('"text":"Let me think.","thought":true,"thoughtSignature":"sig-123"');
          expect(body).toContain(`"thoughtSignature":"${fakeCallSignature('Read', 0)}"`);
          break;
      }
    });

    test('another vendor\'s thinking is dropped on the way in, its tool ids kept', async () => {
      server.script(reply().text('ok'));
      const foreign: AssistantMessage = {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'secret reasoning', signature: 'foreign-sig', ...(format === 'anthropic' || format === 'bedrock' || format === 'vertex' ? { source: 'gemini' as const } : {}) },
          { type: 'tool_use', id: 'call_xyz9', name: 'Read', input: { file_path: 'f' } },
        ],
      };
      await collect(
        request(model, [
          { role: 'user', content: [{ type: 'text', text: 'hi' }] },
          foreign,
          { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_xyz9', content: [{ type: 'text', text: 'r' }], isError: false }] },
        ]),
      );
      const body = JSON.stringify(server.requests[0]?.body);
      expect(body).not.toContain('secret reasoning');
      expect(body.split('call_xyz9').length - 1).toBe(2);
    });

    test('images in a user message and in a tool result go in the wire format\'s own way', async () => {
      server.script(reply().text('a red pixel'));
      const image = { type: 'image' as const, mediaType: 'image/png' as const, data: 'iVBORw0KGgo=' };
      await collect(
        request(model, [
          { role: 'user', content: [{ type: 'text', text: 'what is this?' }, image] },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'call_img1', name: 'Read', input: { file_path: 'p.png' } }] },
          { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_img1', content: [image], isError: false }] },
        ]),
      );
      const body = JSON.stringify(server.requests[0]?.body);
      const expected: Record<string, string> = {
        anthropic: '"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}',
        bedrock: '"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}',
        vertex: '"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}',
        'openai-responses': '"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgo="',
        'openai-chat': '"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}',
        gemini: '"inlineData":{"mimeType":"image/png","data":"iVBORw0KGgo="}',
      };
      expect(body.split(expected[format]!).length - 1).toBe(2);
    });

    test('max_tokens and refusal (content filter, safety) map onto moat\'s stop reasons', async () => {
      server.script(reply().text('cut off mid').stop('max_tokens'), reply().text('I can\'t help with that.').stop('refusal'));
      expect(stopOf(await collect(request(model))).reason).toBe('max_tokens');
      expect(stopOf(await collect(request(model))).reason).toBe('refusal');
    });

    test('HTTP errors map onto the retry policy: 429 with its wait, 5xx, 401', async () => {
      server.script(httpError(429, { retryAfter: 2 }), httpError(503), httpError(500), httpError(401));
      const rate = errorOf(await collect(request(model))).error;
      expect(rate.kind).toBe('rate_limit');
      expect(rate.retryAfterMs).toBe(2000);
      expect(errorOf(await collect(request(model))).error.kind).toBe('server');
      expect(errorOf(await collect(request(model))).error.kind).toBe('server');
      const auth: ProviderError = errorOf(await collect(request(model))).error;
      expect(auth.kind).toBe('auth');
      expect(auth.message.split('\n').length).toBe(1);
    });

    test('a conversation too long for the window: the vendor\'s own refusal becomes a final bad_request saying what to do', async () => {
      server.script(contextTooLong());
      const e = errorOf(await collect(request(model))).error;
      expect(e).toMatchObject({ kind: 'bad_request', reason: 'context_too_long', status: 400 });
      expect(e.message).toContain("the conversation no longer fits the model's context window");
      expect(e.message).toContain('/compact summarises it, /clear starts afresh, /model picks a model with a larger window');
      expect(e.message).toContain(CONTEXT_WORDS[format]);
      expect(e.message).not.toContain('\n');
      expect(e.message.length).toBeLessThanOrEqual(400);
    });

    test('a dropped connection mid-stream ends with a stream error carrying the partial text', async () => {
      server.script(reply().text('partial answ').drop());
      const e = errorOf(await collect(request(model)));
      expect(e.error.kind).toBe('stream');
      expect(e.partial.content).toEqual([{ type: 'text', text: 'partial answ' }]);
    });

    test('an error in the body is final for the attempt and retryable', async () => {
      server.script(reply().text('so far').streamError('overloaded_error'));
      const e = errorOf(await collect(request(model)));
      expect(['overloaded', 'stream', 'server']).toContain(e.error.kind);
    });

    test('a stalled stream is aborted after the idle timeout', async () => {
      server.script(reply().text('then nothing').stall());
      const e = errorOf(await collect(request(model), { idleTimeoutMs: 300 }));
      expect(e.error.kind).toBe('stalled');
    });

    test('a consumer that stops early releases the connection; the next request is served', async () => {
      server.script(reply().text('first ', { chunkSize: 2, delayMs: 20 }).text('never read'), reply().text('next'));
      for await (const e of router.stream(request(model), { signal: new AbortController().signal, idleTimeoutMs: 5000 })) {
        if (e.type === 'text_delta') break;
      }
      expect(stopOf(await collect(request(model))).message.content).toEqual([{ type: 'text', text: 'next' }]);
    });

    test('the caller aborting mid-stream ends with aborted', async () => {
      server.script(reply().text('slow', {}).wait(2000));
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 150);
      const e = errorOf(await collect(request(model), { signal: controller.signal }));
      expect(e.error.kind).toBe('aborted');
    });
  });
}

describe('model router', () => {
  test('no key: one line naming the variable, and the local-server way out', async () => {
    const bare = new ModelRouter({ env: {} });
    const e = errorOf(await (async () => {
      const events: ProviderEvent[] = [];
      for await (const ev of bare.stream(request('openai/gpt-5.1'), { signal: new AbortController().signal, idleTimeoutMs: 1000 })) events.push(ev);
      return events;
    })());
    expect(e.error).toEqual({ kind: 'auth', message: 'no API key for openai: set OPENAI_API_KEY, or run a local model with no key: --model ollama/<name>' });
    expect(bare.missingKey('ollama/qwen3-coder')).toBeUndefined();
    expect(bare.missingKey('gemini/gemini-2.5-pro')).toContain('GEMINI_API_KEY or GOOGLE_API_KEY');
  });

  test('model strings: provider/model, gateways with slashes, bare names by catalogue', () => {
    const r = new ModelRouter({ env: {} });
    expect(r.resolve('openai/gpt-5.1')).toEqual({ provider: 'openai', model: 'gpt-5.1' });
    expect(r.resolve('openrouter/anthropic/claude-sonnet-4.5')).toEqual({ provider: 'openrouter', model: 'anthropic/claude-sonnet-4.5' });
    expect(r.resolve('claude-sonnet-4-5-20250929')).toEqual({ provider: 'anthropic', model: 'claude-sonnet-4-5-20250929' });
    expect(r.resolve('gpt-5.1-codex')).toEqual({ provider: 'openai', model: 'gpt-5.1-codex' });
    expect(r.resolve('gemini-2.5-flash')).toEqual({ provider: 'gemini', model: 'gemini-2.5-flash' });
    expect(r.resolve('haiku')).toEqual({ provider: 'anthropic', model: 'claude-haiku-4-5' });
    expect(() => r.resolve('nope/model')).toThrow(/unknown provider "nope"/);
  });

  test('the catalogue prices hosted copies like the vendor and fits the request to the model', () => {
    const r = new ModelRouter({ env: {} });
    expect(r.info('openrouter/anthropic/claude-sonnet-4.5').price.input).toBe(3);
    expect(r.info('bedrock/us.anthropic.claude-haiku-4-5-20251001-v1:0').price.output).toBe(5);
    expect(r.info('vertex/claude-opus-4-5@20251101').price.input).toBe(5);
    expect(r.info('ollama/qwen3-coder')).toMatchObject({ known: false, price: { input: 0, output: 0 } });
  });

  test('adapters load on first use only', async () => {
    const loaded: string[] = [];
    const r = new ModelRouter({
      env: { OPENAI_API_KEY: 'k' },
      load: async (name) => {
        loaded.push(name);
        return { name, stream: async function* () {} };
      },
    });
    expect(loaded).toEqual([]);
    for await (const _ of r.stream(request('openai/gpt-5.1'), { signal: new AbortController().signal, idleTimeoutMs: 100 })) void _;
    for await (const _ of r.stream(request('openai/gpt-5'), { signal: new AbortController().signal, idleTimeoutMs: 100 })) void _;
    expect(loaded).toEqual(['openai']);
  });

  test('warm starts loading the adapter a request is coming for, and the request uses that one; not without a key, nor for a bad name', async () => {
    const loaded: string[] = [];
    const warmed: string[] = [];
    const r = new ModelRouter({
      env: { OPENAI_API_KEY: 'k' },
      load: async (name) => {
        loaded.push(name);
        return { name, stream: async function* () {}, warm: (model: string) => void warmed.push(`${name}/${model}`) };
      },
    });
    r.warm('claude-sonnet-4-5'); // no ANTHROPIC_API_KEY: the request will say so, nothing to load
    r.warm('nope/x');
    r.warm('openai/gpt-5.1');
    expect(loaded).toEqual(['openai']);
    await Bun.sleep(0);
    expect(warmed).toEqual(['openai/gpt-5.1']);
    for await (const _ of r.stream(request('openai/gpt-5.1'), { signal: new AbortController().signal, idleTimeoutMs: 100 })) void _;
    expect(loaded).toEqual(['openai']);
  });
});

describe('Anthropic on the clouds', () => {
  test('Bedrock: the model goes in the path, the Bedrock API key as a bearer token, the version in the body; the binary event stream is read', async () => {
    server.script(reply().text('from bedrock'));
    const events = await collect(request('bedrock/us.anthropic.claude-haiku-4-5-20251001-v1:0'));
    expect(stopOf(events).message.content).toEqual([{ type: 'text', text: 'from bedrock' }]);
    const r = server.requests[0]!;
    expect(r.headers['authorization']).toBe('Bearer bedrock-key');
    const body = r.body as Record<string, unknown>;
    expect(body['model']).toBeUndefined();
    // The SDK moves the API version from its header into the body, as Bedrock wants it.
    expect(typeof body['anthropic_version']).toBe('string');
  });

  test('Vertex: the model in Google\'s path, the Google credentials\' token, Anthropic\'s SSE', async () => {
    const { createVertexProvider } = await import('../../src/providers/anthropic/vertex.ts');
    const authClient = { projectId: 'proj-1', getRequestHeaders: async () => new Headers({ authorization: 'Bearer ya29.fake' }) };
    const vertex = createVertexProvider('vertex', { baseURL: `${server.url}/v1`, region: 'us-east5', authClient: authClient as never });
    server.script(reply().text('from vertex'));
    const events: ProviderEvent[] = [];
    for await (const e of vertex.stream(request('claude-sonnet-4-5@20250929'), { signal: new AbortController().signal, idleTimeoutMs: 5000 })) events.push(e);
    expect(stopOf(events).message.content).toEqual([{ type: 'text', text: 'from vertex' }]);
    const r = server.requests[0]!;
    expect(r.path).toBe('/v1/projects/proj-1/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict');
    expect(r.headers['authorization']).toBe('Bearer ya29.fake');
    expect(typeof (r.body as Record<string, unknown>)['anthropic_version']).toBe('string');
    expect((r.body as Record<string, unknown>)['model']).toBeUndefined();
  });
});
