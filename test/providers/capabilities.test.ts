/**
 * What a model cannot take is left out of its request, never out of the history: images become a
 * placeholder for a model described without them (one notice), a model nobody describes gets them and,
 * if its server refuses, one clear final error and placeholders from then on; a model without tools is
 * sent none, with its history's calls as text.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { BUILTIN_PROVIDERS, ModelRouter, type Message, type ProviderEvent, type ProviderRequest } from '../../src/providers/index.ts';
import { httpError, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';

let server: FakeAnthropic;
let router: ModelRouter;
const notices: string[] = [];

beforeAll(async () => {
  server = await startFakeAnthropic();
  router = new ModelRouter({
    providers: {
      ...BUILTIN_PROVIDERS,
      ollama: {
        ...BUILTIN_PROVIDERS['ollama']!,
        baseUrl: `${server.url}/v1`,
        models: { 'text-only': { capabilities: { images: false } }, 'no-tools': { capabilities: { tools: false } } },
      },
      llamacpp: { ...BUILTIN_PROVIDERS['llamacpp']!, baseUrl: `${server.url}/v1` },
    },
    env: {},
    notice: (m) => notices.push(m),
  });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  notices.length = 0;
  expect(server.remaining()).toBe(0);
});

const IMAGE = { type: 'image' as const, mediaType: 'image/png' as const, data: 'iVBORw0KGgo=' };
const READ = { name: 'Read', description: 'Read a file', inputSchema: { type: 'object' } };

/** A screenshot from the user, and one the Read tool returned. */
const WITH_IMAGES: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'what is wrong here?' }, IMAGE] },
  { role: 'assistant', content: [{ type: 'tool_use', id: 'call_img1', name: 'Read', input: { file_path: 'shot.png' } }] },
  { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_img1', content: [IMAGE], isError: false }] },
];

function request(model: string, messages: Message[]): ProviderRequest {
  return { model, system: 'sys', messages, tools: [READ], maxTokens: 100 };
}

async function last(r: ProviderRequest): Promise<ProviderEvent | undefined> {
  let event: ProviderEvent | undefined;
  for await (const e of router.stream(r, { signal: new AbortController().signal, idleTimeoutMs: 2000 })) event = e;
  return event;
}

const body = (i: number) => JSON.stringify(server.requests[i]?.body);
const count = (text: string, part: string) => text.split(part).length - 1;

describe('images', () => {
  test('a model described without images gets a placeholder for each, the user one notice, the history stays whole', async () => {
    const history = structuredClone(WITH_IMAGES);
    server.script(reply().text('I cannot see it.'), reply().text('Still cannot.'));
    expect((await last(request('ollama/text-only', history)))?.type).toBe('stop');
    expect((await last(request('ollama/text-only', history)))?.type).toBe('stop');
    for (const i of [0, 1]) {
      expect(count(body(i), '[image omitted: ollama/text-only does not accept images]')).toBe(2);
      expect(body(i)).not.toContain('iVBORw0KGgo=');
    }
    expect(notices).toEqual(['ollama/text-only does not accept images: they are sent as "[image omitted]" (/model switches to a model that takes them)']);
    // A later switch to a model that sees sends them again.
    expect(history).toEqual(WITH_IMAGES);
  });

  test('a model nobody describes gets the images', async () => {
    server.script(reply().text('A red pixel.'));
    await last(request('ollama/qwen3-vl', WITH_IMAGES));
    expect(count(body(0), 'data:image/png;base64,iVBORw0KGgo=')).toBe(2);
    expect(notices).toEqual([]);
  });

  test('when its server refuses them: one final, clear error (not a retried 500), then placeholders', async () => {
    // llama.cpp without a vision projector answers a 500.
    server.script(
      httpError(500, { rawBody: JSON.stringify({ error: { code: 500, message: 'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj', type: 'server_error' } }) }),
      reply().text('Without the picture: …'),
    );
    const e = await last(request('llamacpp/qwen3-coder', WITH_IMAGES));
    if (e?.type !== 'error') throw new Error('expected an error');
    expect(e.error.kind).toBe('bad_request');
    expect(e.error.message).toStartWith('llamacpp/qwen3-coder does not accept images; from now on they are sent to it as "[image omitted]"');
    expect(e.error.message).toContain('image input is not supported');
    expect((await last(request('llamacpp/qwen3-coder', WITH_IMAGES)))?.type).toBe('stop');
    expect(count(body(1), '[image omitted: llamacpp/qwen3-coder does not accept images]')).toBe(2);
    expect(notices).toEqual([]);
  });

  test('an unrelated failure of a model nobody describes is left as it was', async () => {
    server.script(httpError(503), httpError(400, { message: 'max_tokens is too large' }));
    const outage = await last(request('llamacpp/other', WITH_IMAGES));
    expect(outage?.type === 'error' && outage.error.kind).toBe('server');
    const bad = await last(request('llamacpp/other', WITH_IMAGES));
    expect(bad?.type === 'error' && bad.error.message).toBe('OpenAI-compatible API error 400: max_tokens is too large');
  });
});

describe('tools', () => {
  test('tools = false: none sent, earlier calls go as text, one notice', async () => {
    const history: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'read a.txt' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: 'call_1', name: 'Read', input: { file_path: 'a.txt' } }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_1', content: [{ type: 'text', text: 'alpha' }], isError: false }] },
    ];
    server.script(reply().text('It says alpha.'), reply().text('Yes.'));
    expect((await last(request('ollama/no-tools', history)))?.type).toBe('stop');
    await last(request('ollama/no-tools', history));
    const sent = server.requests[0]?.body as { tools?: unknown; messages: { role: string; content: unknown }[] };
    expect(sent.tools).toBeUndefined();
    expect(sent.messages).toEqual([
      { role: 'system', content: 'sys' },
      { role: 'user', content: 'read a.txt' },
      { role: 'assistant', content: 'Reading.[called Read with {"file_path":"a.txt"}]' },
      { role: 'user', content: '[result of Read]\n\nalpha' },
    ]);
    expect(notices).toEqual(['ollama/no-tools does not take tools (tools = false in its model entry): it is sent none and answers in text']);
  });
});
