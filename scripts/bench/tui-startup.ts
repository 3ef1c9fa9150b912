/**
 * Time to the first frame of the interactive UI in a real terminal (tmux),
 * against floors measured in the same run:
 *  - tmux's own cost: the pane running `echo` instead of moat ("after start"
 *    is moat's time minus this; target: at most 60 ms);
 *  - a `bun build --compile` hello-world printing the same marker (the least
 *    any Bun executable takes; reported as a ratio).
 * Each program waits behind a fifo until tmux copies the pane's output to a
 * file (pipe-pane); the clock starts when the fifo opens and stops when the
 * marker reaches the file (read every millisecond in-process, so the
 * measurement spawns nothing while the program starts).
 * moat's first frame is drawn before Ink loads (src/tui/first-paint.ts) and
 * then replaced by Ink's own; the time to Ink's frame (the marker inside a
 * synchronized-output frame, which only Ink writes) is reported beside it.
 * Run: bun run build && bun run scripts/bench/tui-startup.ts  (MOAT_TUI_BIN overrides the binary, BEFORE_BIN adds one, BINS=name=path,… any number, RUNS=20)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { makeSandbox } from '../../test/support/run-moat.ts';
import { tempState } from '../../test/support/temp.ts';
import { freshCopy } from './fresh-copy.ts';

const BIN = process.env.MOAT_TUI_BIN ?? resolve(import.meta.dir, '../../dist/moat');
const BEFORE = process.env.BEFORE_BIN;
const RUNS = Number(process.env.RUNS ?? 20);
const TARGET_MS = 65;
const sb = makeSandbox('http://127.0.0.1:9');
const dir = mkdtempSync(join(tmpdir(), 'moat-bench-tui-'));

function tmux(sock: string, args: string[]): void {
  const r = Bun.spawnSync(['tmux', '-S', sock, '-f', '/dev/null', ...args], { stdout: 'ignore', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`tmux ${args[0]}: ${r.stderr.toString().trim()}`);
}

let n = 0;
const BSU = '\x1b[?2026h';

/**
 * Milliseconds from releasing `command` in a 100x30 pane until `marker` is in
 * its output and, with `ink`, until it is in one of Ink's frames.
 */
async function timeToScreen(command: string, marker: string, ink = false): Promise<{ first: number; ink: number }> {
  const id = n++;
  const sock = join(dir, `s${id}.sock`);
  const gate = join(dir, `g${id}`);
  const out = join(dir, `o${id}`);
  if (Bun.spawnSync(['mkfifo', gate]).exitCode !== 0) throw new Error('mkfifo failed');
  const env = { TERM: 'xterm-256color', ...sb.env };
  tmux(sock, ['new-session', '-d', '-s', 'main', '-x', '100', '-y', '30', '-c', sb.cwd, ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), `read _ < ${gate}; exec ${command}`]);
  try {
    tmux(sock, ['pipe-pane', '-o', '-t', 'main', `cat > ${out}`]);
    while (!existsSync(out)) await Bun.sleep(1);
    const t0 = performance.now();
    writeFileSync(gate, 'go\n');
    const end = t0 + 10_000;
    let first: number | undefined;
    for (;;) {
      const text = readFileSync(out, 'latin1');
      if (first === undefined && text.includes(marker)) first = performance.now() - t0;
      if (first !== undefined && !ink) return { first, ink: first };
      const frame = text.indexOf(BSU);
      if (first !== undefined && frame >= 0 && text.includes(marker, frame)) return { first, ink: performance.now() - t0 };
      if (performance.now() > end) throw new Error(`${command}: no "${marker}"${ink ? " in Ink's frame" : ''} within 10 s`);
      await Bun.sleep(1);
    }
  } finally {
    Bun.spawnSync(['tmux', '-S', sock, 'kill-server'], { stdout: 'ignore', stderr: 'ignore' });
    await Bun.sleep(30);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
try {
  const hello = join(dir, 'hello');
  writeFileSync(`${hello}.ts`, "console.log('ready'); await Bun.sleep(5000);\n");
  if (Bun.spawnSync(['bun', 'build', '--compile', `${hello}.ts`, '--outfile', hello], { stdout: 'ignore', stderr: 'inherit' }).exitCode !== 0) throw new Error('could not build the hello-world floor');
  // Each binary from a copy written now, as the floor is (fresh-copy.ts).
  const extra = (process.env.BINS ?? '')
    .split(',')
    .filter((e) => e !== '')
    .map((e) => ({ name: e.slice(0, e.indexOf('=')), source: e.slice(e.indexOf('=') + 1) }));
  const bins = [...(BEFORE === undefined ? [{ name: 'moat', source: BIN }] : [{ name: 'before', source: BEFORE }, { name: 'after', source: BIN }]), ...extra].map((b) => ({
    ...b,
    bin: freshCopy(b.source, dir, b.name),
  }));
  const tmuxOnly: number[] = [];
  const floor: number[] = [];
  const ui = bins.map(() => [] as number[]);
  const inkUi = bins.map(() => [] as number[]);
  // A first round warms the page cache; it is not counted.
  for (let i = -1; i < RUNS; i++) {
    const t = (await timeToScreen(`sh -c 'echo ready; sleep 5'`, 'ready')).first;
    const f = (await timeToScreen(hello, 'ready')).first;
    const u = [];
    for (const b of bins) u.push(await timeToScreen(b.bin, 'Ask moat', true));
    if (i < 0) continue;
    tmuxOnly.push(t);
    floor.push(f);
    u.forEach((x, j) => {
      ui[j]?.push(x.first);
      inkUi[j]?.push(x.ink);
    });
  }
  const t = median(tmuxOnly);
  const f = median(floor);
  console.log(`tmux + echo: median ${t.toFixed(1)} ms; hello-world floor: median ${f.toFixed(1)} ms raw (n=${RUNS})`);
  for (const [j, b] of bins.entries()) {
    const u = median(ui[j] ?? []);
    console.log(
      `[${b.name}] first frame: median ${u.toFixed(1)} ms raw, ${(u - t).toFixed(1)} ms after start (target <= ${TARGET_MS} ms), ${(u / f).toFixed(2)}x the floor, min ${(Math.min(...(ui[j] ?? [])) - t).toFixed(1)} ms after start; Ink's frame: median ${(median(inkUi[j] ?? []) - t).toFixed(1)} ms after start`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  // The sandbox's folders and this run's folder (made outside a test run, so no preload removes them).
  tempState.runEnded();
}
