/** `[tools.<name>] timeout` and `retry` around a call: what is retried, what is not, and what the model and the card see. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { Server } from 'bun';
import { z } from 'zod';
import { createHttpRequestTool, defineTool, runWithPolicy, ToolError, type AnyTool, type ToolDisplay } from '../../src/tools/index.ts';
import { makeContext, removeDir, tempDir } from './tool-context.ts';

let dir = '';
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => removeDir(dir));

/** A tool whose n-th call does what the script says. */
function scripted(effect: 'read' | 'write', steps: (() => Promise<string>)[]) {
  let calls = 0;
  const tool = defineTool({
    name: 'Probe',
    description: 'test',
    inputSchema: z.strictObject({}),
    effect,
    intent: () => ({ ruleName: 'Probe', paths: [], summary: 'probe' }),
    execute: async (_input, ctx) => {
      const step = steps[Math.min(calls++, steps.length - 1)];
      return { content: await Promise.race([step?.() ?? Promise.resolve('done'), new Promise<string>((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))))]) };
    },
  }) as unknown as AnyTool;
  return { tool, calls: () => calls };
}

const fail = (message: string, retryable: boolean) => () => Promise.reject(new ToolError(message, { retryable }));
const ok = (text: string) => () => Promise.resolve(text);
const hang = () => new Promise<string>(() => {});

function ctx() {
  const updates: ToolDisplay[] = [];
  return { context: makeContext(dir, { onUpdate: (d: ToolDisplay) => updates.push(d) }), updates };
}

const retry3 = { retry: { attempts: 3, backoff: 'exponential' as const, initialMs: 5 } };

describe('runWithPolicy', () => {
  test('an idempotent call whose failures may pass is retried; the model sees the earlier attempts, the card each retry', async () => {
    const { tool, calls } = scripted('read', [fail('connection reset', true), fail('503 from upstream', true), ok('the data')]);
    const { context, updates } = ctx();
    const r = await runWithPolicy(tool, {}, context, retry3);
    expect(calls()).toBe(3);
    expect(r).toEqual({ content: 'the data\n\n[moat: succeeded on attempt 3 of 3; earlier: attempt 1: connection reset; attempt 2: 503 from upstream]' });
    expect(updates).toEqual([
      { type: 'text', text: 'retry 2/3 in 5 ms: connection reset' },
      { type: 'text', text: 'retry 3/3 in 10 ms: 503 from upstream' },
    ]);
  });

  test('a failure that would repeat (a refusal, a bad path) is not retried; nor is a call that is not idempotent', async () => {
    const refused = scripted('read', [fail('File does not exist: x', false), ok('never')]);
    expect(await runWithPolicy(refused.tool, {}, ctx().context, retry3)).toEqual({ content: 'File does not exist: x', isError: true });
    expect(refused.calls()).toBe(1);
    const write = scripted('write', [fail('connection reset', true), ok('never')]);
    expect((await runWithPolicy(write.tool, {}, ctx().context, retry3)).content).toBe('connection reset');
    expect(write.calls()).toBe(1);
  });

  test('the timeout stops a call of any tool; a retried one gets a fresh timeout each attempt; all attempts failing says so', async () => {
    const once = scripted('write', [hang]);
    const started = performance.now();
    expect(await runWithPolicy(once.tool, {}, ctx().context, { timeoutMs: 50 })).toEqual({ content: 'Probe timed out after 50 ms ([tools.Probe] timeout).', isError: true, retryable: true });
    expect(performance.now() - started).toBeLessThan(1000);
    const twice = scripted('read', [hang, hang]);
    const r = await runWithPolicy(twice.tool, {}, ctx().context, { timeoutMs: 30, retry: { attempts: 2, backoff: 'fixed', initialMs: 1 } });
    expect(twice.calls()).toBe(2);
    expect(r.content).toBe('Probe timed out after 30 ms ([tools.Probe] timeout).\n\n[moat: failed on attempt 2 of 2; earlier: attempt 1: Probe timed out after 30 ms ([tools.Probe] timeout).]');
  });

  test('the user interrupting during the backoff ends the call at once', async () => {
    const t = scripted('read', [fail('connection reset', true), ok('never')]);
    const abort = new AbortController();
    const { context } = ctx();
    const started = performance.now();
    const pending = runWithPolicy(t.tool, {}, { ...context, signal: abort.signal }, { retry: { attempts: 3, backoff: 'fixed', initialMs: 5000 } });
    setTimeout(() => abort.abort(), 20);
    await pending;
    expect(performance.now() - started).toBeLessThan(1000);
    expect(t.calls()).toBe(1);
  });
});

describe('HttpRequest under a retry policy', () => {
  let server: Server<undefined>;
  let hits = 0;
  beforeAll(() => {
    server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => (++hits % 2 === 1 ? new Response('busy', { status: 503 }) : new Response('fine')) });
  });
  afterAll(() => void server.stop(true));

  test('a GET that meets a 503 is retried (idempotent), a POST is not', async () => {
    const http = createHttpRequestTool({ allowPrivate: true });
    hits = 0;
    const get = await runWithPolicy(http, { url: `http://127.0.0.1:${server.port}/x`, method: 'GET' }, ctx().context, retry3);
    expect(hits).toBe(2);
    expect(String(get.content)).toContain('Status: 200');
    expect(String(get.content)).toContain('[moat: succeeded on attempt 2 of 3; earlier: attempt 1: GET http://127.0.0.1');
    hits = 0;
    const post = await runWithPolicy(http, { url: `http://127.0.0.1:${server.port}/x`, method: 'POST', body: 'x' }, ctx().context, retry3);
    expect(hits).toBe(1);
    expect(post.isError).toBe(true);
  });
});
