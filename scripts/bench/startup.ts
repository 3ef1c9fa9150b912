/**
 * Start-up of the compiled binary, each number against a floor measured in the
 * same run: a `bun build --compile` hello-world (the least any Bun executable
 * costs here: wall time to exit and peak RSS).
 *
 *  - first byte: `moat -p hi` from spawn to the first byte of its first model
 *    request reaching a local server (target: 50 ms on a machine whose floor is
 *    18 ms, so at most 2.8x the floor), and the CPU time moat's main thread
 *    had used by then (read from /proc as the byte arrives: this machine's
 *    other load moves the wall time by several ms between runs, not this);
 *  - read-then-answer: `moat -p` reading a file and answering, against a server
 *    that answers instantly: wall time (target 0.12 s, 6.7x the floor) and peak
 *    RSS (target 60 MB, 2.6x the floor's 23 MB); also with `[sandbox] mode =
 *    "off"`, which must cost the same (the OS sandbox loads only when a process
 *    is started);
 *  - `moat --version`.
 *
 * The working folder is a git repository with a commit and an untracked file,
 * as most are: git facts go into the system prompt. Runs interleave (floor,
 * then each series) so load from other work on the machine falls on all alike;
 * results are medians. BEFORE_BIN=<path> adds a second binary to every series,
 * interleaved, for before/after comparisons; BINS=name=path,name=path,… adds
 * any number (build variants measured against each other). TRUSTED=1 trusts the
 * folder: git's status is then read (in a read-only sandbox); untrusted,
 * only `.git/HEAD`.
 *
 * Run: bun run build && bun run scripts/bench/startup.ts   (RUNS=20 by default)
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { reply, startFakeAnthropic } from '../../test/support/fake-anthropic.ts';
import { startFirstByteServer } from './first-byte-server.ts';
import { freshCopy } from './fresh-copy.ts';

const BIN = process.env.BIN ?? resolve(import.meta.dir, '../../dist/moat');
const BEFORE = process.env.BEFORE_BIN;
const RUNS = Number(process.env.RUNS ?? 20);
/** The targets, as ratios to the floor (the issue's numbers over this machine's 18 ms / 23 MB floor). */
const TARGET = { firstByte: 50 / 18, wall: 120 / 18, rss: 60 / 23 };

if (Bun.spawnSync(['test', '-x', '/usr/bin/time']).exitCode !== 0) {
  console.error('needs /usr/bin/time (apt-get install -y time)');
  process.exit(1);
}

/** BINS=name=path,… : more binaries measured in the same interleaved runs. */
function extraBins(): { name: string; source: string }[] {
  return (process.env.BINS ?? '')
    .split(',')
    .filter((e) => e !== '')
    .map((e) => {
      const at = e.indexOf('=');
      return { name: e.slice(0, at), source: e.slice(at + 1) };
    });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const describe = (xs: number[], unit = 'ms') => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${median(xs).toFixed(1)} ${unit} (min ${s[0]?.toFixed(1)}, max ${s.at(-1)?.toFixed(1)}, n=${s.length})`;
};

// Not `moat-*`: test runs going at the same time remove the `moat-*` folders that appear while they run (test/support/cleanup-preload.ts).
const root = mkdtempSync(join(tmpdir(), 'bench-startup-'));
try {
  // The floor: a hello-world compiled the same way (bun build --compile).
  const hello = join(root, 'hello');
  writeFileSync(`${hello}.ts`, "console.log('hello');\n");
  const built = Bun.spawnSync(['bun', 'build', '--compile', `${hello}.ts`, '--outfile', hello], { stdout: 'ignore', stderr: 'inherit' });
  if (built.exitCode !== 0) throw new Error('could not build the hello-world floor');

  const cwd = join(root, 'work');
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(cwd, 'notes.txt'), 'alpha\nbeta\ngamma\n');
  const git = (...args: string[]) => Bun.spawnSync(['git', '-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], { cwd, stdout: 'ignore', stderr: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('add', 'notes.txt');
  git('commit', '-q', '-m', 'notes');
  writeFileSync(join(cwd, 'draft.txt'), 'untracked\n');

  // The time of the first byte of each connection is the request's first byte.
  const listener = startFirstByteServer();
  /** /usr/bin/time's pid for the run under way: moat is its child. */
  let timing: number | undefined;
  let firstCpu: number | undefined;
  /**
   * CPU time moat's main thread has used so far, in ms (schedstat's first field): steadier than the first
   * byte's wall time on a machine whose other load delays some runs, as it counts only what moat itself ran.
   */
  const mainThreadCpuMs = (): number | undefined => {
    try {
      const child = readFileSync(`/proc/${timing}/task/${timing}/children`, 'utf8').trim().split(/\s+/)[0];
      return Number(readFileSync(`/proc/${child}/task/${child}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
    } catch {
      return undefined;
    }
  };
  const server = await startFakeAnthropic();

  const offConfig = join(root, 'config-off');
  mkdirSync(join(offConfig, 'moat'), { recursive: true });
  writeFileSync(join(offConfig, 'moat', 'config.toml'), '[sandbox]\nmode = "off"\n');
  if (process.env.TRUSTED === '1') {
    mkdirSync(join(root, 'config', 'moat'), { recursive: true });
    writeFileSync(join(root, 'config', 'moat', 'projects.json'), JSON.stringify({ version: 1, projects: { [realpathSync(cwd)]: { trusted: true } } }));
  }
  const baseEnv = {
    PATH: process.env.PATH ?? '',
    HOME: root,
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CONFIG_HOME: join(root, 'config'),
    XDG_CACHE_HOME: join(root, 'cache'),
    ANTHROPIC_API_KEY: 'bench',
  };

  /** One run under GNU time: wall ms (spawn to exit), peak RSS in MB, and the first request's first byte if one came. */
  async function run(argv: string[], env: Record<string, string>): Promise<{ ms: number; rssMb: number; firstByteMs?: number; firstCpuMs?: number }> {
    let first: number | undefined;
    listener.onNextFirstByte(() => {
      first = performance.now();
      firstCpu = mainThreadCpuMs();
    });
    const t0 = performance.now();
    firstCpu = undefined;
    const proc = Bun.spawn(['/usr/bin/time', '-f', '%M', ...argv], { cwd, env, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
    timing = proc.pid;
    const [, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const ms = performance.now() - t0;
    listener.onNextFirstByte(undefined);
    if (code !== 0) throw new Error(`${argv.join(' ')} exited ${code}: ${err}`);
    return { ms, rssMb: Number(err.trim().split('\n').at(-1)) / 1024, ...(first === undefined ? {} : { firstByteMs: first - t0 }), ...(firstCpu === undefined ? {} : { firstCpuMs: firstCpu }) };
  }

  // Each binary from a copy written now, as the floor is (fresh-copy.ts).
  const bins = [...(BEFORE === undefined ? [{ name: 'moat', source: BIN }] : [{ name: 'before', source: BEFORE }, { name: 'after', source: BIN }]), ...extraBins()].map((b) => ({
    ...b,
    bin: freshCopy(b.source, root, b.name),
    // Its own state and caches: binaries of different ages may not share a database (schema versions) or a cache.
    env: { ...baseEnv, XDG_DATA_HOME: join(root, 'data', b.name), XDG_CACHE_HOME: join(root, 'cache', b.name) },
  }));
  const floor = { ms: [] as number[], rss: [] as number[] };
  const series = bins.map((b) => ({ ...b, version: [] as number[], first: [] as number[], firstCpu: [] as number[], firstRss: [] as number[], wall: [] as number[], rss: [] as number[], wallOff: [] as number[], rssOff: [] as number[] }));
  // Warm the page cache for every binary.
  await run([hello], baseEnv);
  for (const s of series) await run([s.bin, '--version'], s.env);
  for (let i = 0; i < RUNS; i++) {
    const f = await run([hello], baseEnv);
    floor.ms.push(f.ms);
    floor.rss.push(f.rssMb);
    for (const s of series) {
      s.version.push((await run([s.bin, '--version'], s.env)).ms);
      const fb = await run([s.bin, '-p', 'hi'], { ...s.env, ANTHROPIC_BASE_URL: `http://127.0.0.1:${listener.port}` });
      if (fb.firstByteMs === undefined) throw new Error('no model request arrived');
      s.first.push(fb.firstByteMs);
      if (fb.firstCpuMs !== undefined) s.firstCpu.push(fb.firstCpuMs);
      s.firstRss.push(fb.rssMb);
      for (const off of [false, true]) {
        server.script(reply().toolUse('Read', { file_path: 'notes.txt' }).stop('tool_use'), reply().text('Three lines.'));
        const r = await run([s.bin, '-p', 'how many lines in notes.txt?'], { ...s.env, ANTHROPIC_BASE_URL: server.url, ...(off ? { XDG_CONFIG_HOME: offConfig } : {}) });
        (off ? s.wallOff : s.wall).push(r.ms);
        (off ? s.rssOff : s.rss).push(r.rssMb);
      }
    }
  }
  listener.stop();
  await server.close();

  const fMs = median(floor.ms);
  const fRss = median(floor.rss);
  const ratio = (x: number, base: number, target?: number) => `${(x / base).toFixed(2)}x${target === undefined ? '' : ` (target <= ${target.toFixed(2)}x)`}`;
  console.log(`floor (bun build --compile hello-world): wall ${describe(floor.ms)}, peak RSS median ${fRss.toFixed(1)} MB`);
  for (const s of series) {
    console.log(`\n[${s.name}] ${s.source} (measured from a fresh copy)`);
    console.log(`  --version:               ${describe(s.version)} = ${ratio(median(s.version), fMs)}`);
    console.log(`  -p first request, first byte: ${describe(s.first)} = ${ratio(median(s.first), fMs, TARGET.firstByte)}; peak RSS of the run ${median(s.firstRss).toFixed(1)} MB`);
    if (s.firstCpu.length > 0) console.log(`    moat's main thread had used ${describe(s.firstCpu)} of CPU by then`);
    console.log(`  -p read-then-answer:     ${describe(s.wall)} = ${ratio(median(s.wall), fMs, TARGET.wall)}`);
    console.log(`    peak RSS: median ${median(s.rss).toFixed(1)} MB, max ${Math.max(...s.rss).toFixed(1)} MB = ${ratio(median(s.rss), fRss, TARGET.rss)}`);
    console.log(
      `    with [sandbox] mode = "off": median ${median(s.wallOff).toFixed(1)} ms, peak RSS ${median(s.rssOff).toFixed(1)} MB — the OS sandbox costs ${((median(s.wall) / median(s.wallOff) - 1) * 100).toFixed(1)} % wall, ${((median(s.rss) / median(s.rssOff) - 1) * 100).toFixed(1)} % RSS (target: within 5 %)`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
