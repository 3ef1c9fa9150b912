/**
 * Gemini's thinking config goes only to models that think: the fake answers any other with the 400 the
 * Gemini API sends ("Thinking is not enabled for models/gemini-2.0-flash"), so a request that still
 * carried it would fail here as it fails against Google.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { BUILTIN_PROVIDERS, ModelRouter, type ProviderEvent, type ProviderRequest } from '../../src/providers/index.ts';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';

let server: FakeAnthropic;
let router: ModelRouter;

beforeAll(async () => {
  server = await startFakeAnthropic();
  router = new ModelRouter({ providers: { ...BUILTIN_PROVIDERS, gemini: { ...BUILTIN_PROVIDERS['gemini']!, baseUrl: server.url } }, env: { GEMINI_API_KEY: 'g-fake' } });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
  expect(server.remaining()).toBe(0);
});

function request(model: string, thinkingBudget?: number): ProviderRequest {
  return {
    model,
    system: 'sys',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    tools: [],
    maxTokens: 8000,
    ...(thinkingBudget === undefined ? {} : { thinkingBudget }),
  };
}

async function last(r: ProviderRequest): Promise<ProviderEvent | undefined> {
  let event: ProviderEvent | undefined;
  for await (const e of router.stream(r, { signal: new AbortController().signal, idleTimeoutMs: 2000 })) event = e;
  return event;
}

function thinkingConfig(i = 0): unknown {
  const body = server.requests[i]?.body as { generationConfig?: { thinkingConfig?: unknown } };
  return body.generationConfig?.thinkingConfig;
}

describe('Gemini thinking config', () => {
  test('the fake refuses a thinking config for a model that does not think, in the Gemini API\'s words', async () => {
    server.script(reply().text('never sent'));
    const res = await fetch(`${server.url}/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { thinkingConfig: { includeThoughts: true } } }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: 400, message: 'Thinking is not enabled for models/gemini-2.0-flash', status: 'INVALID_ARGUMENT' } });
  });

  for (const model of ['gemini-2.0-flash', 'gemini-2.0-flash-lite-001', 'gemma-3-27b-it']) {
    test(`${model}: no thinking config, even with a thinking budget asked for, and the answer comes`, async () => {
      server.script(reply().text('Hello.'));
      const e = await last(request(`gemini/${model}`, 4096));
      expect(e?.type === 'stop' && e.message.content).toEqual([{ type: 'text', text: 'Hello.' }]);
      expect(thinkingConfig()).toBeUndefined();
    });
  }

  test('thinking models get thoughts included: the budget asked for, else -1 (the model decides)', async () => {
    server.script(reply().text('a'), reply().text('b'), reply().text('c'));
    await last(request('gemini/gemini-2.5-pro', 4096));
    // Flash-Lite thinks only when asked to, and refuses includeThoughts while its thinking is off.
    await last(request('gemini/gemini-2.5-flash-lite'));
    // Not in the catalogue, but named as a thinking family.
    await last(request('gemini/gemini-3-flash-preview'));
    expect([thinkingConfig(0), thinkingConfig(1), thinkingConfig(2)]).toEqual([
      { includeThoughts: true, thinkingBudget: 4096 },
      { includeThoughts: true, thinkingBudget: -1 },
      { includeThoughts: true, thinkingBudget: -1 },
    ]);
    expect(server.requests.map((r) => r.path)).toEqual([
      '/v1beta/models/gemini-2.5-pro:streamGenerateContent',
      '/v1beta/models/gemini-2.5-flash-lite:streamGenerateContent',
      '/v1beta/models/gemini-3-flash-preview:streamGenerateContent',
    ]);
  });

  test('the catalogue: 2.0 Flash and Flash-Lite do not reason; unknown ids are judged by name', () => {
    const reasons = (ref: string) => router.info(ref).capabilities.reasoning;
    expect(router.info('gemini/gemini-2.0-flash')).toMatchObject({ known: true, capabilities: { reasoning: false, images: true, tools: true }, maxOutput: 8192 });
    expect(router.info('gemini-2.0-flash-lite')).toMatchObject({ provider: 'gemini', known: true, capabilities: { reasoning: false } });
    expect(reasons('gemini/gemini-2.0-flash-exp')).toBe(false);
    expect(reasons('gemini/gemini-1.5-pro-002')).toBe(false);
    expect(reasons('gemini/gemma-3-27b-it')).toBe(false);
    expect(reasons('gemini/learnlm-2.0-flash-experimental')).toBe(false);
    expect(reasons('gemini/gemini-2.5-flash-preview-09-2025')).toBe(true);
    expect(router.info('gemini/gemini-3-flash-preview')).toMatchObject({ known: false, capabilities: { reasoning: true } });
    expect(reasons('gemini/gemini-10-ultra')).toBe(true);
  });
});
