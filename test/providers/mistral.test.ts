/**
 * Mistral's tool-call rules: a history begun on another model (Anthropic's `toolu_…` ids, a user message
 * right after tool results) goes to the built-in `mistral` provider in a shape its API takes, while the
 * fake refuses the unmapped shape with Mistral's own 400s, as the real API does.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { BUILTIN_PROVIDERS, ModelRouter, type Message, type ProviderEvent, type ProviderRequest } from '../../src/providers/index.ts';
import { mistralToolId } from '../../src/providers/openai-chat/tool-call-rules.ts';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';

let server: FakeAnthropic;
let router: ModelRouter;

beforeAll(async () => {
  server = await startFakeAnthropic();
  router = new ModelRouter({
    providers: {
      ...BUILTIN_PROVIDERS,
      mistral: { ...BUILTIN_PROVIDERS['mistral']!, baseUrl: `${server.url}/v1` },
      // The same server through a provider without the rules: what moat sent before them.
      plain: { type: 'openai-chat', baseUrl: `${server.url}/v1`, keyRequired: false, listsModels: false },
    },
    env: { MISTRAL_API_KEY: 'm-fake' },
  });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  expect(server.remaining()).toBe(0);
});

/** Two Anthropic calls whose ids share their first 20 characters, their results, then the user speaks. */
const HISTORY: Message[] = [
  { role: 'user', content: [{ type: 'text', text: 'read both' }] },
  {
    role: 'assistant',
    content: [
      { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lq9', name: 'Read', input: { file_path: 'a.txt' } },
      { type: 'tool_use', id: 'toolu_01A09q90qw90lq917835lqX', name: 'Read', input: { file_path: 'b.txt' } },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', toolUseId: 'toolu_01A09q90qw90lq917835lq9', content: [{ type: 'text', text: 'from-a' }], isError: false },
      { type: 'tool_result', toolUseId: 'toolu_01A09q90qw90lq917835lqX', content: [{ type: 'text', text: 'from-b' }], isError: false },
      { type: 'text', text: 'and now compare them' },
    ],
  },
];

function request(model: string, messages: Message[] = HISTORY): ProviderRequest {
  return { model, system: 'sys', messages, tools: [{ name: 'Read', description: 'Read a file', inputSchema: { type: 'object' } }], maxTokens: 100 };
}

async function last(r: ProviderRequest): Promise<ProviderEvent | undefined> {
  let event: ProviderEvent | undefined;
  for await (const e of router.stream(r, { signal: new AbortController().signal, idleTimeoutMs: 2000 })) event = e;
  return event;
}

type Sent = { role: string; content: unknown; tool_call_id?: string; tool_calls?: { id: string }[] };

describe('Mistral tool-call rules', () => {
  test('the fake refuses what Mistral refuses: a history sent without the rules fails with Mistral\'s words', async () => {
    server.script(reply().text('never sent'));
    const e = await last(request('plain/mistral-large-latest'));
    expect(e?.type === 'error' && e.error.message).toBe(
      'OpenAI-compatible API error 400: Tool call id was toolu_01A09q90qw90lq917835lq9 but must be a-z, A-Z, 0-9, with a length of 9.',
    );
  });

  test('a history from another vendor goes over: ids mapped to 9 letters and digits, each call matching its result', async () => {
    server.script(reply().text('They differ.'));
    const e = await last(request('mistral/mistral-large-latest'));
    expect(e?.type === 'stop' && e.message.content).toEqual([{ type: 'text', text: 'They differ.' }]);
    const sent = (server.requests[0]?.body as { messages: Sent[] }).messages;
    const calls = sent.flatMap((m) => m.tool_calls ?? []).map((c) => c.id);
    const results = sent.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
    expect(calls.length).toBe(2);
    for (const id of calls) expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
    // Cut to 9 characters, these two ids would both be "toolu01A0".
    expect(new Set(calls).size).toBe(2);
    expect(results).toEqual(calls);
    expect(calls).toEqual([mistralToolId('toolu_01A09q90qw90lq917835lq9'), mistralToolId('toolu_01A09q90qw90lq917835lqX')]);
    // An assistant turn between the tool results and what the user said.
    expect(sent.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'assistant', 'user']);
  });

  test('the map is the same on every request, and Mistral\'s own ids go through unchanged', async () => {
    expect(mistralToolId('call_xyz9')).toBe(mistralToolId('call_xyz9'));
    expect(mistralToolId('D681PevKs')).toBe('D681PevKs');
    const own: Message[] = [
      { role: 'user', content: [{ type: 'text', text: 'go' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'D681PevKs', name: 'Read', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'D681PevKs', content: [{ type: 'text', text: 'x' }], isError: false }] },
    ];
    server.script(reply().text('ok'));
    expect((await last(request('mistral/devstral-medium-latest', own)))?.type).toBe('stop');
    expect(JSON.stringify(server.requests[0]?.body)).toContain('"tool_call_id":"D681PevKs"');
  });

  test('the stored history keeps the original ids: only the wire copy is mapped', async () => {
    const messages = structuredClone(HISTORY);
    server.script(reply().text('ok'));
    await last(request('mistral/mistral-large-latest', messages));
    expect(messages).toEqual(HISTORY);
  });
});
