/**
 * Benchmark: what the first checkpoint of a fresh `moat -p` costs on an
 * unchanged 10,000-file project, in the compiled binary, as the turn-around
 * of its first file-changing call: from the end of the model's answer that
 * asks for a Write (its arguments streamed over ~140 ms, as a model streams
 * them) to the next request. The floor, in the same run: the same Write
 * with checkpoints off (`[checkpoints] enabled = false`). The difference is
 * what the checkpoint adds (target: at most 50 ms). The Write goes to a `.gitignore`d folder, so
 * every run finds the tree as the last one left it.
 *
 * Run: bun run build && bun run scripts/bench/checkpoint-first-change.ts   (BEFORE_BIN adds a binary, interleaved; RUNS=9, FILES=10000)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { framesFor, reply, type FakeReply } from '../../test/support/fake-anthropic.ts';

const BIN = process.env.BIN ?? resolve(import.meta.dir, '../../dist/moat');
const BEFORE = process.env.BEFORE_BIN;
const RUNS = Number(process.env.RUNS ?? 9);
const FILES = Number(process.env.FILES ?? 10_000);
const encoder = new TextEncoder();

type Piece = Uint8Array | { delayMs: number };

function sse(r: FakeReply, n: number): Piece[] {
  return framesFor(r, 'claude-sonnet-4-5', n).map((f) => ('event' in f ? encoder.encode(`event: ${f.event}\ndata: ${JSON.stringify(f.data)}\n\n`) : { delayMs: f.delayMs }));
}

/** Answers request k with the k-th reply, paced; notes when each request arrived and each answer ended. */
function startServer(replies: () => FakeReply[]) {
  const arrived: number[] = [];
  const ended: number[] = [];
  let script: FakeReply[] = [];
  let n = 0;
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    idleTimeout: 0,
    async fetch(req) {
      arrived.push(performance.now());
      await req.arrayBuffer();
      const k = n++;
      const pieces = sse(script[k] ?? reply().text('done').build(), k + 1);
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          for (const p of pieces) {
            if (p instanceof Uint8Array) controller.enqueue(p);
            else await Bun.sleep(p.delayMs);
          }
          controller.close();
          ended.push(performance.now());
        },
      });
      return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'request-id': `req_${k}` } });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    reset() {
      arrived.length = 0;
      ended.length = 0;
      n = 0;
      script = replies();
    },
    /** From the end of the first answer to the second request. */
    firstGap: () => arrived[1]! - ended[0]!,
    stop: () => server.stop(true),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// Not `moat-*`: test runs going at the same time remove the `moat-*` folders that appear while they run.
const root = mkdtempSync(join(tmpdir(), 'bench-checkpoint-first-'));
try {
  const cwd = join(root, 'project');
  for (let i = 0; i < FILES; i++) {
    const sub = join(cwd, 'src', `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `f${i}.ts`), `export const value${i} = ${i};\n`.repeat(20));
  }
  writeFileSync(join(cwd, '.gitignore'), 'out/\n');
  const paced = { fragments: 8, delayMs: Number(process.env.DELAY_MS ?? 20) };
  const server = startServer(() => [reply().toolUse('Write', { file_path: join(cwd, 'out', 'note.txt'), content: 'a note\n' }, paced).stop('tool_use').build(), reply().text('done').build()]);
  const off = join(root, 'config-off');
  mkdirSync(join(off, 'moat'), { recursive: true });
  writeFileSync(join(off, 'moat', 'config.toml'), '[checkpoints]\nenabled = false\n');
  const binaries: Record<string, string> = BEFORE ? { before: BEFORE, after: BIN } : { moat: BIN };
  const run = async (name: string, bin: string, checkpoints = true): Promise<number> => {
    server.reset();
    const env = { PATH: process.env.PATH ?? '', HOME: root, XDG_DATA_HOME: join(root, `data-${name}`), XDG_CONFIG_HOME: checkpoints ? join(root, 'config') : off, ANTHROPIC_API_KEY: 'bench', ANTHROPIC_BASE_URL: server.url };
    const proc = Bun.spawn([bin, '-p', 'note it', '--permission-mode', 'acceptEdits', '--output-format', 'json'], { cwd, env, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) throw new Error(`${name} exited ${code}: ${err}${out}`);
    return server.firstGap();
  };
  // Each binary's first checkpoint of the project (every file hashed) is not what is measured.
  for (const [name, bin] of Object.entries(binaries)) await run(name, bin);
  const writes = new Map<string, number[]>(Object.keys(binaries).map((k) => [k, []]));
  const reads = new Map<string, number[]>(Object.keys(binaries).map((k) => [k, []]));
  for (let r = 0; r < RUNS; r++) {
    for (const [name, bin] of Object.entries(binaries)) {
      writes.get(name)!.push(await run(name, bin));
      reads.get(name)!.push(await run(name, bin, false));
    }
  }
  void server.stop();
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`fresh moat -p, unchanged ${FILES}-file project, the Write's arguments streamed over ${(paced.delayMs * 7).toFixed(0)} ms; median of ${RUNS}, load ${load}`);
  for (const name of Object.keys(binaries)) {
    const w = median(writes.get(name)!);
    const rd = median(reads.get(name)!);
    console.log(`${name}: first Write turn-around ${w.toFixed(1)} ms, the same with checkpoints off (floor) ${rd.toFixed(1)} ms: the checkpoint adds ${(w - rd).toFixed(1)} ms (target <= 50)`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
