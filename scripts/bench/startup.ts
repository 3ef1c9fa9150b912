/**
 * Startup and per-run cost of the compiled binary:
 *  - `moat --version` wall time (target < 50 ms)
 *  - `moat -p` read-then-answer against a local fake server that answers
 *    instantly: wall time (target < 0.3 s) and peak RSS (target < 130 MB).
 * Run: bun run build && bun run scripts/bench/startup.ts
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
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

const wall: number[] = [];
const rss: number[] = [];
for (let i = 0; i < RUNS; i++) {
  server.script(reply().toolUse('read', { file_path: 'notes.txt' }).stop('tool_use'), reply().text('Three lines.'));
  const r = await timeRun(['-p', 'how many lines in notes.txt?'], { cwd, env });
  wall.push(r.ms);
  rss.push(r.rssKb / 1024);
}
console.log(`moat -p read-then-answer:     ${stats(wall)}`);
console.log(`  peak RSS: median ${rss.sort((a, b) => a - b)[Math.floor(rss.length / 2)]!.toFixed(1)} MB, max ${Math.max(...rss).toFixed(1)} MB`);
await server.close();
