/**
 * Memory over a long interactive session: 200 prompts, each answered with
 * about 1.5 KB of markdown (a list, a code block, a table). RSS of the moat
 * process after 20 turns and after 200. Target: ratio within 1.5x (printed
 * transcript items must not be retained).
 * Run: bun run build && bun run scripts/bench/tui-memory.ts  (MOAT_TUI_BIN overrides the binary; TURNS=n)
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { reply, startFakeAnthropic } from '../../test/support/fake-anthropic.ts';
import { makeSandbox } from '../../test/support/run-moat.ts';
import { tempState } from '../../test/support/temp.ts';
import { TmuxSession } from '../../test/support/tmux.ts';

const BIN = process.env.MOAT_TUI_BIN ?? resolve(import.meta.dir, '../../dist/moat');
const TURNS = Number(process.env.TURNS ?? 200);
const answer = [
  '## Result',
  '',
  'Here is what I found, with **emphasis** and `inline code`:',
  '',
  ...Array.from({ length: 8 }, (_, i) => `- point ${i} about the change and why it matters`),
  '',
  '```ts',
  ...Array.from({ length: 15 }, (_, i) => `export const value${i} = compute(${i}); // line ${i}`),
  '```',
  '',
  '| key | value |',
  '|---|---|',
  '| a | 1 |',
  '| b | 2 |',
  '',
  'DONE-MARKER',
].join('\n');
const server = await startFakeAnthropic({ repeat: true });
server.script(reply().text(answer, { chunkSize: 200, delayMs: 1 }).stop('end_turn'));
const sb = makeSandbox(server.url);

function rssMb(pid: string): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) / 1024;
}

const s = new TmuxSession(BIN, { cols: 100, rows: 30, cwd: sb.cwd, env: sb.env });
try {
  await s.waitFor('Ask moat', { timeoutMs: 10_000 });
  const pid = s.info('#{pane_pid}');
  let at20 = 0;
  const t0 = performance.now();
  for (let turn = 1; turn <= TURNS; turn++) {
    await s.typeAndWait(`question ${turn}`);
    s.keys('Enter');
    await s.waitFor(() => server.requests.length >= turn, { timeoutMs: 10_000 });
    await s.waitFor((() => {
      let last = 0;
      return () => {
        if (performance.now() - last < 15) return false;
        last = performance.now();
        const screen = s.screen();
        return screen.includes('DONE-MARKER') && screen.includes('Ask moat');
      };
    })(), { timeoutMs: 10_000 });
    if (turn === 20) {
      Bun.gc(true);
      at20 = rssMb(pid);
    }
  }
  const at200 = rssMb(pid);
  console.log(`${TURNS} turns in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  console.log(`RSS after 20 turns: ${at20.toFixed(0)} MB; after ${TURNS}: ${at200.toFixed(0)} MB; ratio ${(at200 / at20).toFixed(2)} (target <= 1.5)`);
} finally {
  await s.kill();
  await server.close();
  // The sandbox's folders (made outside a test run, so no preload removes them).
  tempState.runEnded();
}
