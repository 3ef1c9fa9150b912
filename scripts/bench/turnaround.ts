/**
 * Tool turn-around: from the end of a model stream that asks for a read to
 * the first byte of the next model request, in the compiled binary. One
 * `moat -p` run makes TURNS read calls in a row against a local server that
 * answers instantly, so every gap is one turn-around: parse the stream,
 * persist the message, check permission, run the read, persist the result,
 * build and send the next request.
 *  - warm: every gap but the first, median over the runs (target: <= 3 ms);
 *  - cold: the first gap of each fresh process, the first tool call, which
 *    also loads what the first tool call needs (target: median <= 10 ms).
 *    Measured twice: with the whole answer written at once (as the warm
 *    turns), and streamed as a model streams it (PACED: the first event
 *    TTFT_MS after the request, then one event every EVENT_MS; the tool
 *    call's arguments in several deltas). At once, everything moat does
 *    with the answer, from its first byte, counts; streamed, only what is
 *    left after its last byte does, which is what "from the end of a model
 *    stream" means for a real model.
 *
 * The floor, measured in the same run: a bare client that reads the same
 * SSE response to its end and sends the next request at once (fetch, no
 * parsing, nothing in between). Reported as a ratio to it.
 *
 * BEFORE_BIN=<path> adds a second binary, run interleaved with the first.
 *
 * Run: bun run build && bun run scripts/bench/turnaround.ts   (TURNS=200 RUNS=9 TTFT_MS=150 EVENT_MS=8 by default)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { framesFor, reply, type FakeReply } from '../../test/support/fake-anthropic.ts';

// BIN=/path/to/other/moat compares another build (before/after numbers).
const BIN = process.env.BIN ?? resolve(import.meta.dir, '../../dist/moat');
const BEFORE = process.env.BEFORE_BIN;
const TURNS = Number(process.env.TURNS ?? 200);
const RUNS = Number(process.env.RUNS ?? 9);
const TTFT_MS = Number(process.env.TTFT_MS ?? 150);
const EVENT_MS = Number(process.env.EVENT_MS ?? 8);

const encoder = new TextEncoder();

/** The answer's SSE events, one string each. */
function events(r: FakeReply, n: number): string[] {
  return framesFor(r, 'claude-sonnet-4-5', n).flatMap((f) => ('event' in f ? [`event: ${f.event}\ndata: ${JSON.stringify(f.data)}\n\n`] : []));
}

function sse(r: FakeReply, n: number): Uint8Array {
  return encoder.encode(events(r, n).join(''));
}

/** The answer in pieces, as a model streams it: the tool call's arguments split in deltas of a few characters. */
function streamedEvents(r: FakeReply, n: number): Uint8Array[] {
  return events(r, n).flatMap((e) => {
    const m = /^event: content_block_delta\ndata: (.*)\n\n$/s.exec(e);
    const data = m ? (JSON.parse(m[1]!) as { index: number; delta: { type: string; partial_json?: string } }) : undefined;
    if (data?.delta.type !== 'input_json_delta' || data.delta.partial_json === undefined) return [encoder.encode(e)];
    const json = data.delta.partial_json;
    const parts: Uint8Array[] = [];
    for (let i = 0; i < json.length; i += 8) {
      const delta = { type: 'content_block_delta', index: data.index, delta: { type: 'input_json_delta', partial_json: json.slice(i, i + 8) } };
      parts.push(encoder.encode(`event: content_block_delta\ndata: ${JSON.stringify(delta)}\n\n`));
    }
    return parts;
  });
}

/**
 * A server that answers request k with the k-th body and records, per
 * request, when it arrived and when its response body was handed over whole.
 */
function startServer(bodies: (n: number) => Uint8Array | Uint8Array[]) {
  const arrived: number[] = [];
  const ended: number[] = [];
  let n = 0;
  let lastBody = '';
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    async fetch(req) {
      arrived.push(performance.now());
      lastBody = await req.text();
      const body = bodies(n++);
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          if (body instanceof Uint8Array) controller.enqueue(body);
          else {
            // Streamed: the first event after TTFT_MS, then one every EVENT_MS.
            for (const [i, piece] of body.entries()) {
              await Bun.sleep(i === 0 ? TTFT_MS : EVENT_MS);
              controller.enqueue(piece);
            }
          }
          controller.close();
          ended.push(performance.now());
        },
      });
      return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'request-id': `req_${n}` } });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    /** Gaps between a response's end and the next request's arrival. */
    gaps(): number[] {
      const out: number[] = [];
      for (let i = 0; i + 1 < arrived.length && i < ended.length; i++) out.push(arrived[i + 1]! - ended[i]!);
      return out;
    },
    /** The last request's body, as sent. */
    lastBody: () => lastBody,
    reset() {
      arrived.length = 0;
      ended.length = 0;
      n = 0;
    },
    stop: () => server.stop(true),
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function describe(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const p90 = s[Math.floor(s.length * 0.9)]!;
  return `median ${median(xs).toFixed(2)} ms, p90 ${p90.toFixed(2)} ms, min ${s[0]!.toFixed(2)} ms (n=${s.length})`;
}

const readReply = (i: number) => reply().toolUse('Read', { file_path: 'notes.txt' }, { id: `toolu_bench_${i}` }).stop('tool_use').build();
const bodies = (n: number) => (n < TURNS ? sse(readReply(n), n + 1) : sse(reply().text('done').build(), n + 1));

// Not `moat-*`: test runs going at the same time remove the `moat-*` folders that appear while they run (test/support/cleanup-preload.ts).
const root = mkdtempSync(join(tmpdir(), 'bench-turnaround-'));
try {
  const cwd = join(root, 'work');
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(cwd, 'notes.txt'), 'alpha\nbeta\ngamma\n');
  const server = startServer(bodies);
  /** moat's environment: its own home and data under `root`, the model at `url`. */
  const envFor = (url: string) => ({
    PATH: process.env.PATH ?? '',
    HOME: root,
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CONFIG_HOME: join(root, 'config'),
    ANTHROPIC_API_KEY: 'bench',
    ANTHROPIC_BASE_URL: url,
  });

  // The floor: read each response to its end, then send the next request at once.
  const floor: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    server.reset();
    for (let i = 0; i <= TURNS; i++) {
      const res = await fetch(`${server.url}/v1/messages`, { method: 'POST', body: '{}' });
      await res.arrayBuffer();
    }
    floor.push(...server.gaps());
  }

  const binaries = BEFORE ? { before: BEFORE, after: BIN } : { moat: BIN };
  const warm = new Map<string, number[]>(Object.keys(binaries).map((k) => [k, []]));
  const cold = new Map<string, number[]>(Object.keys(binaries).map((k) => [k, []]));
  for (let r = 0; r < RUNS; r++) {
    for (const [name, bin] of Object.entries(binaries)) {
      server.reset();
      const proc = Bun.spawn([bin, '-p', 'read notes.txt again and again', '--output-format', 'json'], { cwd, env: envFor(server.url), stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      if (code !== 0) throw new Error(`${name} exited ${code}: ${err}${out}`);
      const result = JSON.parse(out) as { num_turns: number };
      if (result.num_turns !== TURNS + 1) throw new Error(`expected ${TURNS + 1} turns, got ${result.num_turns}`);
      // Each turn really read the file (a misnamed tool would make every gap an error path).
      const sent = JSON.parse(server.lastBody()) as { messages: { content: { type: string; is_error?: boolean; content?: unknown }[] | string }[] };
      const results = sent.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content.filter((p) => p.type === 'tool_result')));
      if (results.length !== TURNS || results.some((r) => r.is_error === true || !JSON.stringify(r.content).includes('beta'))) throw new Error(`${name}: the reads did not all succeed: ${JSON.stringify(results[0])}`);
      const [first, ...rest] = server.gaps();
      cold.get(name)!.push(first!);
      warm.get(name)!.push(...rest);
    }
  }
  void server.stop();

  // Cold, streamed: fresh processes making one read call, its answer streamed as a model streams it.
  const paced = startServer((n) => (n === 0 ? streamedEvents(readReply(0), 1) : sse(reply().text('done').build(), n + 1)));
  const coldStreamed = new Map<string, number[]>(Object.keys(binaries).map((k) => [k, []]));
  for (let r = 0; r < RUNS; r++) {
    for (const [name, bin] of Object.entries(binaries)) {
      paced.reset();
      const proc = Bun.spawn([bin, '-p', 'read notes.txt', '--output-format', 'json'], { cwd, env: envFor(paced.url), stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      if (code !== 0) throw new Error(`${name} exited ${code}: ${err}${out}`);
      if (!paced.lastBody().includes('beta')) throw new Error(`${name}: the streamed read did not succeed`);
      coldStreamed.get(name)!.push(paced.gaps()[0]!);
    }
  }
  void paced.stop();

  console.log(`floor (fetch, read to end, send again): ${describe(floor)}`);
  for (const name of Object.keys(binaries)) {
    const w = warm.get(name)!;
    const c = cold.get(name)!;
    console.log(`${name} warm turn-around (read):  ${describe(w)}; ${(median(w) / median(floor)).toFixed(1)}x floor; target <= 3 ms -> ${median(w) <= 3 ? 'met' : 'NOT met'}`);
    console.log(`${name} cold first tool call, answer at once: ${describe(c)}; target <= 10 ms -> ${median(c) <= 10 ? 'met' : 'NOT met'}`);
    const cs = coldStreamed.get(name)!;
    console.log(`${name} cold first tool call, streamed (first event after ${TTFT_MS} ms, then every ${EVENT_MS} ms): ${describe(cs)}; target <= 10 ms -> ${median(cs) <= 10 ? 'met' : 'NOT met'}`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
