/**
 * Per-event overhead of the Chat Completions adapter, on a recorded 20 KB
 * stream (fixtures/chat-completions-20k.sse: reasoning, prose in small
 * deltas, two tool calls in fragments, usage; as the fake server, checked
 * against real clients, sends it).
 *
 * Floor: what any consumer of the stream pays — the `openai` SDK's SSE
 * decoder and `JSON.parse` of every event. Adapter: the same bytes through
 * moat's whole adapter path (chunk mapper, accumulator, watchdog, final
 * message). Overhead per event = (adapter − floor) / events; target < 2 µs.
 *
 *   bun run scripts/bench/chat-adapter.ts            # measure
 *   bun run scripts/bench/chat-adapter.ts --record   # rewrite the fixture from the fake server
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { _iterSSEMessages } from 'openai/core/streaming';
import { driveStream } from '../../src/providers/drive-stream.ts';
import { ChunkMapper } from '../../src/providers/openai-chat/events.ts';
import { reply, startFakeAnthropic } from '../../test/support/fake-anthropic.ts';

const FIXTURE = join(import.meta.dir, 'fixtures', 'chat-completions-20k.sse');

if (process.argv.includes('--record')) {
  const server = await startFakeAnthropic();
  const words = 'the quick brown fox jumps over the lazy dog while the adapter maps every chunk into neutral events '.split(' ');
  let prose = '';
  for (let i = 0; prose.length < 420; i++) prose += `${words[i % words.length]}${i % 17 === 16 ? '.\n' : ' '}`;
  const content = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n'.repeat(3);
  server.script(
    reply()
      .thinking('Reasoning about the request step by step. '.repeat(6), 'x', { chunkSize: 12 })
      .text(prose, { chunkSize: 16 })
      .toolUse('Write', { file_path: 'src/add.ts', content }, { fragments: 14 })
      .toolUse('Read', { file_path: 'src/index.ts' }, { fragments: 4 })
      .usage({ input: 1200, output: 900, cacheRead: 800 }),
  );
  const res = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'qwen3-coder', stream: true }) });
  await Bun.write(FIXTURE, await res.text());
  await server.close();
}

const bytes = readFileSync(FIXTURE);
const ITERATIONS = Number(process.env.ITERATIONS ?? 2000);
const ROUNDS = 7;

function body(): Response {
  return new Response(bytes);
}

async function floor(): Promise<number> {
  let n = 0;
  for await (const sse of _iterSSEMessages(body(), new AbortController())) {
    if (sse.data !== '[DONE]') JSON.parse(sse.data);
    n++;
  }
  return n;
}

async function adapter(): Promise<number> {
  let n = 0;
  let stopped = false;
  const stream = driveStream({
    api: 'bench',
    options: { signal: new AbortController().signal, idleTimeoutMs: 60_000 },
    open: async () => _iterSSEMessages(body(), new AbortController()),
    requestError: () => ({ kind: 'connection', message: 'unreachable' }),
    mapper: new ChunkMapper('qwen3-coder'),
  });
  for await (const e of stream) {
    n++;
    if (e.type === 'stop') stopped = e.message.content.length === 4;
  }
  if (!stopped) throw new Error('the recorded stream did not end in a whole message (thinking, text, two calls)');
  return n;
}

async function time(fn: () => Promise<number>): Promise<number> {
  const t0 = Bun.nanoseconds();
  for (let i = 0; i < ITERATIONS; i++) await fn();
  return (Bun.nanoseconds() - t0) / ITERATIONS;
}

const events = await floor();
const neutral = await adapter();
// Warm both paths before measuring.
await time(floor);
await time(adapter);
const floors: number[] = [];
const adapters: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  floors.push(await time(floor));
  adapters.push(await time(adapter));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const f = median(floors);
const a = median(adapters);
const perEvent = (a - f) / events / 1000;
console.log(`recorded stream: ${bytes.length} bytes, ${events} SSE events -> ${neutral} neutral events`);
console.log(`floor (SDK SSE decode + JSON.parse): ${(f / 1000).toFixed(1)} µs per stream`);
console.log(`adapter (whole Chat Completions path): ${(a / 1000).toFixed(1)} µs per stream, ${(a / f).toFixed(2)}x the floor`);
console.log(`overhead per SSE event: ${perEvent.toFixed(2)} µs (target < 2 µs) ${perEvent < 2 ? 'OK' : 'OVER'}`);
