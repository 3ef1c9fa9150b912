/** The fake server itself: its bytes on the wire, its script handling, its CLI entry. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAnthropicProvider, type ProviderEvent } from '../../src/providers/index.ts';
import { httpError, parseScript, reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';

let server: FakeAnthropic;
beforeAll(async () => {
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});

async function post(body: unknown): Promise<Response> {
  return fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
    body: JSON.stringify(body),
  });
}

describe('fake anthropic server', () => {
  test('speaks the exact SSE wire format', async () => {
    server.script(reply().text('Hi!').usage({ input: 3, output: 2, cacheCreation: 1, cacheRead: 4 }));
    const res = await post({ model: 'claude-wire', messages: [] });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const text = await res.text();
    const usage = '"usage":{"input_tokens":3,"cache_creation_input_tokens":1,"cache_read_input_tokens":4';
    expect(text.split('\n\n')).toEqual([
      `event: message_start\ndata: {"type":"message_start","message":{"id":"msg_fake_${text.match(/msg_fake_(\d+)/)?.[1]}","type":"message","role":"assistant","model":"claude-wire","content":[],"stop_reason":null,"stop_sequence":null,${usage},"output_tokens":1}}}`,
      'event: ping\ndata: {"type":"ping"}',
      'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
      'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi!"}}',
      'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}',
      `event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},${usage},"output_tokens":2}}`,
      'event: message_stop\ndata: {"type":"message_stop"}',
      '',
    ]);
    expect(server.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/v1/messages',
      headers: { 'x-api-key': 'k' },
      body: { model: 'claude-wire', messages: [] },
    });
  });

  test('HTTP errors carry the API body and headers', async () => {
    server.script(httpError(429, { retryAfter: 7 }));
    const res = await post({});
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.headers.get('request-id')).toMatch(/^req_fake_\d{6}$/);
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit' },
    });
  });

  test('text paced in chunks arrives as several deltas', async () => {
    server.script(reply().text('abcdefghij', { chunkSize: 4, delayMs: 1 }));
    const text = await (await post({ model: 'm' })).text();
    expect([...text.matchAll(/"text_delta","text":"(\w+)"/g)].map((m) => m[1])).toEqual(['abcd', 'efgh', 'ij']);
  });

  test('other routes are 404 and do not consume the script', async () => {
    server.script(reply().text('kept'));
    const res = await fetch(`${server.url}/v1/complete`, { method: 'POST', body: '{}' });
    expect(res.status).toBe(404);
    expect(server.remaining()).toBe(1);
    await (await post({ model: 'm' })).text();
    expect(server.remaining()).toBe(0);
  });

  test('builders serialise to plain JSON that parseScript reads back', () => {
    const builder = reply().thinking('t', 's').toolUse('bash', { command: 'ls' }, { id: 'toolu_x', fragments: 2 }).stall();
    const error = httpError(529);
    expect(parseScript(JSON.parse(JSON.stringify([builder, error])))).toEqual([builder.build(), error]);
  });

  test('parseScript fills defaults and names the first problem', () => {
    expect(parseScript([{ kind: 'reply', steps: [{ type: 'text', text: 'x' }] }])).toEqual([
      {
        kind: 'reply',
        steps: [{ type: 'text', text: 'x' }],
        usage: { input: 10, output: 5, cacheCreation: 0, cacheRead: 0 },
        ending: { type: 'complete' },
      },
    ]);
    expect(() => parseScript({})).toThrow('script must be a JSON array of responses (or {"responses": [...]})');
    expect(() => parseScript([{ kind: 'reply' }])).toThrow('response 0: reply needs a steps array');
    expect(() => parseScript([{ kind: 'nope' }])).toThrow('response 0: kind must be "reply" or "http_error"');
  });

  test('the CLI entry serves a JSON script and prints its URL first', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'moat-fake-'));
    try {
      const file = join(dir, 'script.json');
      await writeFile(file, JSON.stringify([reply().text('from a file')]));
      // Async spawn: the child serves while this process waits on it.
      const child = Bun.spawn([process.execPath, join(import.meta.dir, '../support/fake-anthropic-main.ts'), file], {
        stdout: 'pipe',
        stderr: 'pipe',
      });
      try {
        const reader = child.stdout.getReader();
        let out = '';
        while (!out.includes('\n')) {
          const { value, done } = await reader.read();
          if (done) break;
          out += new TextDecoder().decode(value);
        }
        reader.releaseLock();
        const url = out.split('\n')[0] ?? '';
        expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        const provider = createAnthropicProvider({ apiKey: 'k', baseURL: url });
        const events: ProviderEvent[] = [];
        for await (const e of provider.stream(
          { model: 'm', system: '', messages: [], tools: [], maxTokens: 10 },
          { signal: new AbortController().signal, idleTimeoutMs: 5000 },
        )) {
          events.push(e);
        }
        expect(events.at(-1)).toMatchObject({ type: 'stop', message: { content: [{ type: 'text', text: 'from a file' }] } });
      } finally {
        child.kill('SIGTERM');
        expect(await child.exited).toBe(0);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('the CLI entry rejects a bad script with one line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'moat-fake-'));
    try {
      const file = join(dir, 'script.json');
      await writeFile(file, '{"nope": 1}');
      const child = Bun.spawn([process.execPath, join(import.meta.dir, '../support/fake-anthropic-main.ts'), file], {
        stdout: 'pipe',
        stderr: 'pipe',
      });
      const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
      expect({ stderr, code }).toEqual({
        stderr: 'fake-anthropic: script must be a JSON array of responses (or {"responses": [...]})\n',
        code: 1,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
