import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createAnthropicProvider,
  type AssistantMessage,
  type Provider,
  type ProviderError,
  type ProviderEvent,
  type ProviderRequest,
  type Usage,
} from '../../src/providers/index.ts';
import { httpError, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';

let server: FakeAnthropic;
let provider: Provider;

beforeAll(async () => {
  server = await startFakeAnthropic();
  provider = createAnthropicProvider({ apiKey: 'sk-fake', baseURL: server.url });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  expect(server.remaining()).toBe(0);
});

const HELLO: ProviderRequest = {
  model: 'claude-test',
  system: 'You are terse.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  tools: [],
  maxTokens: 1024,
};

async function collect(
  request: ProviderRequest = HELLO,
  options: { signal?: AbortSignal; idleTimeoutMs?: number } = {},
  p: Provider = provider,
): Promise<ProviderEvent[]> {
  const events: ProviderEvent[] = [];
  for await (const e of p.stream(request, {
    signal: options.signal ?? new AbortController().signal,
    idleTimeoutMs: options.idleTimeoutMs ?? 5000,
  })) {
    events.push(e);
  }
  return events;
}

function last(events: ProviderEvent[]): ProviderEvent {
  const e = events.at(-1);
  if (e === undefined) throw new Error('no events');
  return e;
}

function errorOf(events: ProviderEvent[]): ProviderError {
  const e = last(events);
  if (e.type !== 'error') throw new Error(`expected an error event, got ${e.type}`);
  return e.error;
}

function usage(input: number, output: number, cacheCreation = 0, cacheRead = 0): Usage {
  return { inputTokens: input, outputTokens: output, cacheCreationInputTokens: cacheCreation, cacheReadInputTokens: cacheRead };
}

describe('anthropic provider: successful streams', () => {
  test('text reply: events, final message, request body with cache breakpoints', async () => {
    server.script(reply().text('Hello there.').usage({ input: 12, output: 4, cacheCreation: 7, cacheRead: 30 }));
    const events = await collect({
      ...HELLO,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'first' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            { type: 'image', mediaType: 'image/png', data: 'iVBORw0K' },
          ],
        },
      ],
      tools: [{ name: 'read', description: 'Reads a file.', inputSchema: { properties: { p: { type: 'string' } } } }],
    });
    expect(events).toEqual([
      { type: 'message_start', model: 'claude-test', usage: usage(12, 1, 7, 30), id: 'msg_fake_000001' },
      { type: 'text_start', index: 0 },
      { type: 'text_delta', index: 0, text: 'Hello there.' },
      { type: 'block_end', index: 0 },
      { type: 'usage', usage: usage(12, 4, 7, 30) },
      {
        type: 'stop',
        reason: 'end_turn',
        message: { role: 'assistant', content: [{ type: 'text', text: 'Hello there.' }] },
        usage: usage(12, 4, 7, 30),
      },
    ]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toEqual({
      model: 'claude-test',
      max_tokens: 1024,
      stream: true,
      system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'first' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'look' },
            {
              type: 'image',
              source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' },
              cache_control: { type: 'ephemeral' },
            },
          ],
        },
      ],
      tools: [
        {
          name: 'read',
          description: 'Reads a file.',
          input_schema: { type: 'object', properties: { p: { type: 'string' } } },
        },
      ],
    });
    const headers = server.requests[0]?.headers ?? {};
    // The SDK's own retries are off: every attempt is the agent's.
    expect(headers['x-stainless-retry-count']).toBe('0');
    expect(headers['anthropic-version']).toBeString();
  });

  test('thinking with signature is sent back unchanged; tool results carry is_error', async () => {
    server.script(
      reply()
        .thinking('Consider the file.', 'EqQBCkYIBRgCKkD+/sig==')
        .redactedThinking('EmwKAhgBEgy3va3pzix/LafPsn4a')
        .text('Reading it.')
        .toolUse('read', { file_path: 'a.txt' }, { id: 'toolu_01', fragments: 4 }),
      reply().text('Done.'),
    );
    const request: ProviderRequest = { ...HELLO, thinkingBudget: 2048 };
    const first = await collect(request);
    const stop = last(first);
    if (stop.type !== 'stop') throw new Error('expected stop');
    expect(stop.reason).toBe('tool_use');
    expect(stop.message).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Consider the file.', signature: 'EqQBCkYIBRgCKkD+/sig==' },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
        { type: 'text', text: 'Reading it.' },
        { type: 'tool_use', id: 'toolu_01', name: 'read', input: { file_path: 'a.txt' } },
      ],
    });
    expect(first.filter((e) => e.type === 'tool_use_delta')).toHaveLength(4);

    const second = await collect({
      ...request,
      messages: [
        ...request.messages,
        stop.message,
        {
          role: 'user',
          content: [{ type: 'tool_result', toolUseId: 'toolu_01', content: [{ type: 'text', text: 'no such file' }], isError: true }],
        },
      ],
    });
    expect(last(second).type).toBe('stop');
    const body = server.requests[1]?.body as { messages: unknown[]; thinking: unknown };
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Consider the file.', signature: 'EqQBCkYIBRgCKkD+/sig==' },
          { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
          { type: 'text', text: 'Reading it.' },
          { type: 'tool_use', id: 'toolu_01', name: 'read', input: { file_path: 'a.txt' } },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_01',
            content: [{ type: 'text', text: 'no such file' }],
            is_error: true,
            cache_control: { type: 'ephemeral' },
          },
        ],
      },
    ]);
  });

  test('tool input fragments cut mid-token and mid-unicode-escape', async () => {
    const json = '{"file_path":"caf\\u00e9.ts","n":12345}';
    const cuts = [json.indexOf('\\u') + 3, json.indexOf('123') + 2];
    server.script(reply().toolUse('read', null, { id: 'toolu_02', json, cuts }));
    const events = await collect();
    expect(events.filter((e) => e.type === 'tool_use_delta')).toEqual([
      { type: 'tool_use_delta', index: 0, partialJson: '{"file_path":"caf\\u0' },
      { type: 'tool_use_delta', index: 0, partialJson: '0e9.ts","n":12' },
      { type: 'tool_use_delta', index: 0, partialJson: '345}' },
    ]);
    const stop = last(events);
    expect(stop.type === 'stop' && stop.message.content).toEqual([
      { type: 'tool_use', id: 'toolu_02', name: 'read', input: { file_path: 'café.ts', n: 12345 } },
    ]);
  });

  test('pings keep a slow stream alive past the idle timeout', async () => {
    server.script(reply().text('a').wait(600, { pingEveryMs: 50 }).text('b'));
    const events = await collect(HELLO, { idleTimeoutMs: 250 });
    expect(last(events).type).toBe('stop');
  });
});

test('a slow consumer is not mistaken for a stalled server', async () => {
  server.script(reply().text('abcdef', { chunkSize: 2, delayMs: 30 }));
  const events: ProviderEvent[] = [];
  for await (const e of provider.stream(HELLO, { signal: new AbortController().signal, idleTimeoutMs: 100 })) {
    events.push(e);
    if (e.type === 'text_delta') await Bun.sleep(150);
  }
  expect(last(events)).toMatchObject({ type: 'stop', message: { content: [{ type: 'text', text: 'abcdef' }] } });
});

describe('anthropic provider: HTTP errors', () => {
  const cases: [string, ReturnType<typeof httpError>, Omit<ProviderError, 'requestId'>][] = [
    ['400', httpError(400), { kind: 'bad_request', status: 400, message: 'Anthropic API error 400: messages: at least one message is required' }],
    ['401', httpError(401), { kind: 'auth', status: 401, message: 'Anthropic API error 401: invalid x-api-key' }],
    [
      '403',
      httpError(403),
      { kind: 'auth', status: 403, message: 'Anthropic API error 403: Your API key does not have permission to use the specified resource.' },
    ],
    ['404', httpError(404), { kind: 'bad_request', status: 404, message: 'Anthropic API error 404: model: claude-nope' }],
    ['408', httpError(408), { kind: 'server', status: 408, message: 'Anthropic API error 408: Internal server error' }],
    ['409', httpError(409), { kind: 'server', status: 409, message: 'Anthropic API error 409: Internal server error' }],
    [
      '413',
      httpError(413),
      { kind: 'bad_request', status: 413, message: 'Anthropic API error 413: Request exceeds the maximum allowed number of bytes.' },
    ],
    ['422', httpError(422, { message: 'bad\n  shape' }), { kind: 'bad_request', status: 422, message: 'Anthropic API error 422: bad shape' }],
    [
      '429 retry-after seconds',
      httpError(429, { retryAfter: 1 }),
      {
        kind: 'rate_limit',
        status: 429,
        retryAfterMs: 1000,
        message: 'Anthropic API error 429: Number of request tokens has exceeded your per-minute rate limit',
      },
    ],
    [
      '429 retry-after-ms wins',
      httpError(429, { retryAfter: 9, retryAfterMs: 1500, message: 'slow down' }),
      { kind: 'rate_limit', status: 429, retryAfterMs: 1500, message: 'Anthropic API error 429: slow down' },
    ],
    [
      '429 without retry-after',
      httpError(429, { message: 'slow down' }),
      { kind: 'rate_limit', status: 429, message: 'Anthropic API error 429: slow down' },
    ],
    ['500', httpError(500), { kind: 'server', status: 500, message: 'Anthropic API error 500: Internal server error' }],
    [
      '502 with an HTML page',
      httpError(502, { rawBody: '<html>\n<body><h1>502 Bad Gateway</h1></body>\n</html>' }),
      { kind: 'server', status: 502, message: 'Anthropic API error 502: bad gateway' },
    ],
    ['529', httpError(529), { kind: 'overloaded', status: 529, message: 'Anthropic API error 529: Overloaded' }],
  ];
  for (const [name, response, expected] of cases) {
    test(name, async () => {
      server.script(response);
      const events = await collect();
      expect(events).toEqual([
        {
          type: 'error',
          error: { ...expected, requestId: expect.stringMatching(/^req_fake_\d{6}$/) },
          partial: { role: 'assistant', content: [] },
          usage: usage(0, 0),
        },
      ]);
      // Exactly one attempt: the SDK did not retry behind our back.
      expect(server.requests).toHaveLength(1);
    });
  }

  test('429 with retry-after as an HTTP date', async () => {
    const when = new Date(Date.now() + 5000).toUTCString();
    server.script(httpError(429, { retryAfter: when }));
    const error = errorOf(await collect());
    expect(error.kind).toBe('rate_limit');
    // HTTP dates have one-second resolution.
    expect(error.retryAfterMs).toBeGreaterThan(3000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(5000);
  });

  test('an empty script answers a clear 500', async () => {
    const error = errorOf(await collect());
    expect(error.kind).toBe('server');
    expect(error.message).toMatch(/^Anthropic API error 500: fake-anthropic: the script is empty \(request #\d+ had no response\)$/);
  });
});

describe('anthropic provider: failures mid-stream', () => {
  const partialText: AssistantMessage = { role: 'assistant', content: [{ type: 'text', text: 'partial' }] };

  test('SSE error event: overloaded_error is overloaded, with the partial message', async () => {
    server.script(reply().text('partial').streamError('overloaded_error'));
    const e = last(await collect());
    expect(e).toMatchObject({
      type: 'error',
      error: { kind: 'overloaded', message: 'Anthropic API stream error (overloaded_error): Overloaded' },
      partial: partialText,
      usage: usage(10, 1),
    });
  });

  test('SSE error event of another type is a stream error', async () => {
    server.script(reply().text('partial').streamError('api_error', 'Internal server error'));
    expect(errorOf(await collect())).toMatchObject({
      kind: 'stream',
      message: 'Anthropic API stream error (api_error): Internal server error',
    });
  });

  test('connection dropped mid-body', async () => {
    server.script(reply().text('partial').drop());
    const events = await collect();
    expect(events.map((e) => e.type)).toEqual(['message_start', 'text_start', 'text_delta', 'error']);
    expect(last(events)).toEqual({
      type: 'error',
      error: {
        kind: 'stream',
        message: 'Anthropic API connection lost mid-response: ECONNRESET: The socket connection was closed unexpectedly.',
      },
      partial: partialText,
      usage: usage(10, 1),
    });
  });

  test('clean end of body without message_stop', async () => {
    server.script(reply().text('partial').eof());
    expect(last(await collect())).toEqual({
      type: 'error',
      error: { kind: 'stream', message: 'Anthropic API response ended before the message was complete.' },
      partial: partialText,
      usage: usage(10, 1),
    });
  });

  test('invalid tool JSON from the server is a stream error', async () => {
    server.script(reply().text('ok').toolUse('bash', null, { json: '{"command": "ls' }));
    expect(errorOf(await collect())).toEqual({
      kind: 'stream',
      message: 'Anthropic API sent a malformed stream: tool call bash has invalid input JSON: {"command": "ls',
    });
  });

  test('stall: no bytes for the idle timeout aborts with stalled', async () => {
    server.script(reply().text('partial').stall());
    const t0 = performance.now();
    const events = await collect(HELLO, { idleTimeoutMs: 300 });
    const elapsed = performance.now() - t0;
    expect(last(events)).toEqual({
      type: 'error',
      error: { kind: 'stalled', message: 'Anthropic API stalled: no data for 300ms.' },
      partial: partialText,
      usage: usage(10, 1),
    });
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(elapsed).toBeLessThan(2000);
  });

  test('abort mid-stream ends with aborted and the partial message', async () => {
    server.script(reply().text('partial').stall());
    const controller = new AbortController();
    const events: ProviderEvent[] = [];
    const t0 = performance.now();
    for await (const e of provider.stream(HELLO, { signal: controller.signal, idleTimeoutMs: 10_000 })) {
      events.push(e);
      if (e.type === 'text_delta') setTimeout(() => controller.abort(), 50);
    }
    expect(performance.now() - t0).toBeLessThan(2000);
    expect(last(events)).toEqual({
      type: 'error',
      error: { kind: 'aborted', message: 'Request aborted.' },
      partial: partialText,
      usage: usage(10, 1),
    });
  });

  test('a signal aborted before the call sends no request', async () => {
    const controller = new AbortController();
    controller.abort();
    const events = await collect(HELLO, { signal: controller.signal });
    expect(events).toEqual([
      {
        type: 'error',
        error: { kind: 'aborted', message: 'Request aborted.' },
        partial: { role: 'assistant', content: [] },
        usage: usage(0, 0),
      },
    ]);
    expect(server.requests).toHaveLength(0);
  });

  test('nothing listening: connection error', async () => {
    const gone = await startFakeAnthropic();
    const url = gone.url;
    await gone.close();
    const events = await collect(HELLO, {}, createAnthropicProvider({ apiKey: 'sk-fake', baseURL: url }));
    expect(events).toHaveLength(1);
    const error = errorOf(events);
    expect(error.kind).toBe('connection');
    expect(error.message).toStartWith(`Cannot reach the Anthropic API at ${url}: `);
    expect(error.message).not.toContain('\n');
  });
});

describe('anthropic provider: the SDK stays silent', () => {
  test('no output on stdout or stderr, even for a deprecated model with ANTHROPIC_LOG=debug', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'moat-anthropic-'));
    try {
      const script = join(dir, 'run.ts');
      const providers = join(import.meta.dir, '../../src/providers/index.ts');
      await writeFile(
        script,
        `import { createAnthropicProvider } from ${JSON.stringify(providers)};
const p = createAnthropicProvider({ apiKey: 'sk-fake', baseURL: process.argv[2] });
const request = { model: 'claude-sonnet-4-5', system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], maxTokens: 10 };
const kinds = [];
for (let i = 0; i < 2; i++) {
  for await (const e of p.stream(request, { signal: new AbortController().signal, idleTimeoutMs: 5000 })) kinds.push(e.type === 'error' ? e.error.kind : e.type);
}
await Bun.write(process.argv[3], JSON.stringify(kinds));
`,
      );
      server.script(reply().text('hi'), httpError(500));
      const out = join(dir, 'out.json');
      const child = Bun.spawn([process.execPath, script, server.url, out], {
        stdout: 'pipe',
        stderr: 'pipe',
        env: { ...process.env, ANTHROPIC_LOG: 'debug' },
      });
      const [stdout, stderr, code] = await Promise.all([
        new Response(child.stdout).text(),
        new Response(child.stderr).text(),
        child.exited,
      ]);
      expect({ stdout, stderr, code }).toEqual({ stdout: '', stderr: '', code: 0 });
      expect(JSON.parse(await Bun.file(out).text())).toEqual([
        'message_start',
        'text_start',
        'text_delta',
        'block_end',
        'usage',
        'stop',
        'server',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
