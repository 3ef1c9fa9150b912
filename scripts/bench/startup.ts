/**
 * Startup and per-run cost of the compiled binary:
 *  - `moat --version` wall time (target < 50 ms)
 *  - `moat -p` read-then-answer against a local fake server that answers
 *    instantly: wall time (target < 0.3 s) and peak RSS (target < 130 MB).
 * Run: bun run build && bun run scripts/bench/startup.ts
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { reply, startFakeAnthropic } from '../../test/support/fake-anthropic.ts';

const BIN = resolve(import.meta.dir, '../../dist/moat');
const RUNS = Number(process.env.RUNS ?? 20);

function stats(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  const median = s[Math.floor(s.length / 2)]!;
  const mean = s.reduce((a, b) => a + b, 0) / s.length;
  return `median ${median.toFixed(1)} ms, mean ${mean.toFixed(1)} ms, min ${s[0]!.toFixed(1)} ms, max ${s.at(-1)!.toFixed(1)} ms (n=${s.length})`;
}

async function timeRun(argv: string[], opts: { cwd: string; env: Record<string, string> }): Promise<{ ms: number; rssKb: number }> {
  // GNU time reports the child's peak RSS; fall back to wall time only.
  const t0 = performance.now();
  const proc = Bun.spawn(['/usr/bin/time', '-f', '%M', BIN, ...argv], { ...opts, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  const [, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`moat exited ${code}: ${err}`);
  const rssKb = Number(err.trim().split('\n').at(-1));
  return { ms, rssKb };
}

const hasTime = Bun.spawnSync(['test', '-x', '/usr/bin/time']).exitCode === 0;
if (!hasTime) {
  console.error('needs /usr/bin/time (apt-get install -y time)');
  process.exit(1);
}

const root = mkdtempSync(join(tmpdir(), 'moat-bench-'));
const cwd = join(root, 'work');
mkdirSync(cwd, { recursive: true });
writeFileSync(join(cwd, 'notes.txt'), 'alpha\nbeta\ngamma\n');
const server = await startFakeAnthropic();
const env = {
  PATH: process.env.PATH ?? '',
  HOME: root,
  XDG_DATA_HOME: join(root, 'data'),
  XDG_CONFIG_HOME: join(root, 'config'),
  ANTHROPIC_API_KEY: 'bench',
  ANTHROPIC_BASE_URL: server.url,
};

const version: number[] = [];
for (let i = 0; i < RUNS; i++) version.push((await timeRun(['--version'], { cwd, env })).ms);
console.log(`moat --version:               ${stats(version)}`);

// Read-then-answer with the OS sandbox as shipped (auto) and, interleaved, with `[sandbox] mode = "off"`:
// the sandbox must not change this (it loads only when a process is started).
const offConfig = join(root, 'config-off');
mkdirSync(join(offConfig, 'moat'), { recursive: true });
writeFileSync(join(offConfig, 'moat', 'config.toml'), '[sandbox]\nmode = "off"\n');
const wall: number[] = [];
const rss: number[] = [];
const wallOff: number[] = [];
const rssOff: number[] = [];
for (let i = 0; i < RUNS; i++) {
  for (const off of [false, true]) {
    server.script(reply().toolUse('Read', { file_path: 'notes.txt' }).stop('tool_use'), reply().text('Three lines.'));
    const r = await timeRun(['-p', 'how many lines in notes.txt?'], { cwd, env: off ? { ...env, XDG_CONFIG_HOME: offConfig } : env });
    (off ? wallOff : wall).push(r.ms);
    (off ? rssOff : rss).push(r.rssKb / 1024);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`moat -p read-then-answer:     ${stats(wall)}`);
console.log(`  peak RSS: median ${median(rss).toFixed(1)} MB, max ${Math.max(...rss).toFixed(1)} MB`);
console.log(`  with [sandbox] mode = "off": median ${median(wallOff).toFixed(1)} ms, peak RSS ${median(rssOff).toFixed(1)} MB — the OS sandbox costs ${((median(wall) / median(wallOff) - 1) * 100).toFixed(1)} % wall, ${((median(rss) / median(rssOff) - 1) * 100).toFixed(1)} % RSS (target: within 5 %)`);
await server.close();
rmSync(root, { recursive: true, force: true });
