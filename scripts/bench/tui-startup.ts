/**
 * Time to the first frame of the interactive UI in a real terminal (tmux):
 * from spawning the pane until the prompt is on screen, minus the same
 * measurement for `sh -c 'echo ready'` (tmux's own cost). Target < 120 ms.
 * Run: bun run build && bun run scripts/bench/tui-startup.ts  (MOAT_TUI_BIN overrides the binary)
 */
import { resolve } from 'node:path';
import { makeSandbox } from '../../test/support/run-moat.ts';
import { TmuxSession } from '../../test/support/tmux.ts';

const BIN = process.env.MOAT_TUI_BIN ?? resolve(import.meta.dir, '../../dist/moat');
const RUNS = Number(process.env.RUNS ?? 15);
const sb = makeSandbox('http://127.0.0.1:9');

async function timeToScreen(command: string, marker: string): Promise<number> {
  const t0 = performance.now();
  const s = new TmuxSession(command, { cols: 100, rows: 30, cwd: sb.cwd, env: sb.env });
  try {
    await s.waitFor(marker, { timeoutMs: 10_000 });
    return performance.now() - t0;
  } finally {
    await s.kill();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const base: number[] = [];
const ui: number[] = [];
for (let i = 0; i < RUNS; i++) {
  base.push(await timeToScreen(`sh -c 'echo ready; sleep 5'`, 'ready'));
  ui.push(await timeToScreen(`${BIN}`, 'Ask moat'));
}
const b = median(base);
const u = median(ui);
console.log(`tmux baseline: median ${b.toFixed(0)} ms`);
console.log(`moat first frame: median ${u.toFixed(0)} ms raw, ${(u - b).toFixed(0)} ms after the baseline (target < 120 ms), min ${(Math.min(...ui) - b).toFixed(0)} ms (n=${RUNS})`);
