/**
 * Start-up paths a start-up seam may be kept for (docs/start-up-seams.md),
 * for build variants run interleaved:
 *  - first-byte: `moat -p hi` from spawn to the first byte of its model
 *    request, as scripts/bench/startup.ts measures it, without its other
 *    series (quicker to repeat on a busy machine);
 *  - tui, tui-ink: `moat` in a terminal (a 100x30 pty from util-linux's
 *    `script`) to its first frame (drawn before Ink loads) and to Ink's first
 *    frame; scripts/bench/tui-startup.ts times the same in tmux, wall time
 *    only;
 *  - version: `moat --version`, spawn to exit;
 *  - tool-exec: `moat tool exec base64_encode`, a fresh process's first
 *    WebAssembly tool call (the precompiled entry already installed), to exit;
 *  - acp: `moat acp` from spawn to the answer to `session/new` (an editor
 *    opening a session);
 *  - chat: `moat -p hi` with an OpenAI Chat Completions model (ollama/…)
 *    against a local server that answers at once, to exit.
 * Each reports wall time and CPU time (the whole process's user + system to
 * exit; for first-byte and acp, the main thread's at that moment, from /proc)
 * as medians, and each series' difference from the first: the median of the
 * differences run by run (each run of a series comes right after the first
 * series' run of the same round, so load that changes between rounds falls on
 * both alike).
 *
 * Run: bun run build && BINS=before=path,after=path bun run scripts/bench/seam-paths.ts
 *      (RUNS=15, PATHS=first-byte,tui,version,tool-exec,acp,chat by default)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { reply, startFakeAnthropic } from '../../test/support/fake-anthropic.ts';
import { startFirstByteServer } from './first-byte-server.ts';
import { freshCopy } from './fresh-copy.ts';

const RUNS = Number(process.env.RUNS ?? 15);
const PATHS = (process.env.PATHS ?? 'first-byte,tui,version,tool-exec,acp,chat').split(',');
const specs = (process.env.BINS ?? `moat=${resolve(import.meta.dir, '../../dist/moat')}`).split(',').map((e) => {
  const at = e.indexOf('=');
  return { name: e.slice(0, at), source: e.slice(at + 1) };
});

interface Sample {
  wall: number;
  cpu: number;
}

/** The main thread's CPU time so far, in ms (schedstat's first field). */
const mainThreadCpuMs = (pid: number): number => Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

// Not `moat-*`: test runs going at the same time remove the `moat-*` folders that appear while they run.
const root = mkdtempSync(join(tmpdir(), 'bench-seam-paths-'));
const server = await startFakeAnthropic({ repeat: true });
server.script(reply().text('ok'));
// The first byte of a connection is the request's first byte.
const raw = startFirstByteServer();
try {
  const cwd = join(root, 'work');
  mkdirSync(cwd, { recursive: true });
  const bins = specs.map((s) => {
    const home = join(root, s.name);
    mkdirSync(join(home, 'config', 'moat'), { recursive: true });
    writeFileSync(join(home, 'config', 'moat', 'config.toml'), `[providers.ollama]\nbase_url = "${server.url}/v1"\n`);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      XDG_DATA_HOME: join(home, 'data'),
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_CACHE_HOME: join(home, 'cache'),
      ANTHROPIC_API_KEY: 'bench',
      ANTHROPIC_BASE_URL: server.url,
      NO_COLOR: '1',
    };
    return { ...s, bin: freshCopy(s.source, root, s.name), env, samples: new Map<string, Sample[]>() };
  });

  /** Spawn to exit: wall time and the whole process's CPU time. */
  async function toExit(bin: string, args: string[], env: Record<string, string>): Promise<Sample> {
    const t0 = performance.now();
    const proc = Bun.spawn([bin, ...args], { cwd, env, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const wall = performance.now() - t0;
    if (code !== 0) throw new Error(`${args.join(' ')} exited ${code}: ${err}${out}`);
    const usage = proc.resourceUsage();
    return { wall, cpu: usage === undefined ? Number.NaN : Number(usage.cpuTime.total) / 1000 };
  }

  /** `moat -p hi` to its request's first byte: wall time, and the main thread's CPU time then. */
  async function firstByte(bin: string, env: Record<string, string>): Promise<Sample> {
    let sample: Sample | undefined;
    const t0 = performance.now();
    const proc = Bun.spawn([bin, '-p', 'hi'], { cwd, env: { ...env, ANTHROPIC_BASE_URL: `http://127.0.0.1:${raw.port}` }, stdin: 'ignore', stdout: 'pipe', stderr: 'pipe' });
    raw.onNextFirstByte(() => (sample = { wall: performance.now() - t0, cpu: mainThreadCpuMs(proc.pid) }));
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    raw.onNextFirstByte(undefined);
    if (code !== 0 || sample === undefined) throw new Error(`-p hi exited ${code} (request seen: ${sample !== undefined}): ${err}${out}`);
    return sample;
  }

  /** `moat` in a pty to its first frame and to Ink's (the marker inside a synchronized-output frame, which only Ink writes). */
  async function tuiFrames(bin: string, env: Record<string, string>): Promise<{ first: Sample; ink: Sample }> {
    const t0 = performance.now();
    const proc = Bun.spawn(['script', '-qfec', `stty cols 100 rows 30; exec ${bin}`, '/dev/null'], { cwd, env: { ...env, TERM: 'xterm-256color' }, stdin: 'pipe', stdout: 'pipe', stderr: 'ignore' });
    const decoder = new TextDecoder();
    let text = '';
    let first: Sample | undefined;
    let ink: Sample | undefined;
    let moat: number | undefined;
    const cpu = (): number => {
      moat ??= Number(readFileSync(`/proc/${proc.pid}/task/${proc.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
      return mainThreadCpuMs(moat);
    };
    for await (const chunk of proc.stdout) {
      text += decoder.decode(chunk, { stream: true });
      if (first === undefined && text.includes('Ask moat')) first = { wall: performance.now() - t0, cpu: cpu() };
      const frame = text.indexOf('\x1b[?2026h');
      if (first !== undefined && frame >= 0 && text.includes('Ask moat', frame)) {
        ink = { wall: performance.now() - t0, cpu: cpu() };
        break;
      }
    }
    if (moat !== undefined) process.kill(moat, 'SIGKILL');
    proc.kill('SIGKILL');
    await proc.exited;
    if (first === undefined || ink === undefined) throw new Error(`moat in a pty: no frame: ${text.slice(0, 500)}`);
    return { first, ink };
  }

  /** `moat acp` to the answer to `session/new`: wall time, and the main thread's CPU time then. */
  async function acpSession(bin: string, env: Record<string, string>): Promise<Sample> {
    const t0 = performance.now();
    const proc = Bun.spawn([bin, 'acp'], { cwd, env, stdin: 'pipe', stdout: 'pipe', stderr: 'ignore' });
    const send = (id: number, method: string, params: unknown) => proc.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    // session/new only once initialize is answered, as the protocol asks.
    await send(1, 'initialize', { protocolVersion: 1, clientCapabilities: {} });
    await proc.stdin.flush();
    const decoder = new TextDecoder();
    let text = '';
    let sample: Sample | undefined;
    let asked = false;
    for await (const chunk of proc.stdout) {
      text += decoder.decode(chunk, { stream: true });
      if (!asked && /"id":1[,}]/.test(text)) {
        asked = true;
        await send(2, 'session/new', { cwd, mcpServers: [] });
        await proc.stdin.flush();
      }
      if (/"id":2[,}]/.test(text)) {
        const wall = performance.now() - t0;
        sample = { wall, cpu: mainThreadCpuMs(proc.pid) };
        break;
      }
    }
    proc.kill();
    await proc.exited;
    if (sample === undefined || text.includes('"error"')) throw new Error(`moat acp: no session: ${text}`);
    return sample;
  }

  const runs: Record<string, (b: (typeof bins)[number]) => Promise<Sample>> = {
    'first-byte': (b) => firstByte(b.bin, b.env),
    version: (b) => toExit(b.bin, ['--version'], b.env),
    'tool-exec': (b) => toExit(b.bin, ['tool', 'exec', 'base64_encode', '{"text":"hello"}'], b.env),
    acp: (b) => acpSession(b.bin, b.env),
    chat: (b) => toExit(b.bin, ['-p', 'hi', '--model', 'ollama/bench'], b.env),
  };
  // Warm the page cache and each series' caches (the precompiled tool entry is installed on first use).
  for (const b of bins) for (const p of PATHS) await (p === 'tui' ? tuiFrames(b.bin, b.env) : runs[p]!(b));
  const add = (b: (typeof bins)[number], p: string, s: Sample) => b.samples.set(p, [...(b.samples.get(p) ?? []), s]);
  for (let i = 0; i < RUNS; i++) {
    for (const p of PATHS) {
      for (const b of bins) {
        if (p === 'tui') {
          const { first, ink } = await tuiFrames(b.bin, b.env);
          add(b, 'tui', first);
          add(b, 'tui-ink', ink);
        } else add(b, p, await runs[p]!(b));
      }
    }
  }
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`n=${RUNS} per series, load average at the end ${load}`);
  for (const p of PATHS.flatMap((p) => (p === 'tui' ? ['tui', 'tui-ink'] : [p]))) {
    console.log(`\n${p}:`);
    const first = bins[0]!.samples.get(p)!;
    for (const b of bins) {
      const xs = b.samples.get(p)!;
      const [w, c] = [median(xs.map((s) => s.wall)), median(xs.map((s) => s.cpu))];
      const dw = median(xs.map((s, i) => s.wall - first[i]!.wall));
      const dc = median(xs.map((s, i) => s.cpu - first[i]!.cpu));
      const signed = (x: number) => `${x >= 0 ? '+' : ''}${x.toFixed(1)}`;
      const delta = b === bins[0] ? '' : `  (run by run: ${signed(dw)} ms wall, ${signed(dc)} ms CPU)`;
      console.log(`  ${b.name.padEnd(14)} wall median ${w.toFixed(1)} ms, CPU median ${c.toFixed(1)} ms${delta}`);
    }
  }
} finally {
  raw.stop();
  await server.close();
  rmSync(root, { recursive: true, force: true });
}
