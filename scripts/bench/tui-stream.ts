/**
 * Streaming render cost of the interactive UI in a real terminal (tmux
 * 100x30): 20 KB of markdown at about 1,000 tokens/s. Reports wall time,
 * CPU (user+sys of the whole moat process), peak RSS, bytes written to the
 * terminal (as a multiple of the text), and lines shown other than once in
 * scrollback. Targets: CPU < 2 s, bytes < 3x, 0 duplicates.
 * Run: bun run build && bun run scripts/bench/tui-stream.ts  (MOAT_TUI_BIN overrides the binary)
 */
import { readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { reply, startFakeAnthropic } from '../../test/support/fake-anthropic.ts';
import { makeSandbox } from '../../test/support/run-moat.ts';
import { tempState } from '../../test/support/temp.ts';
import { TmuxSession } from '../../test/support/tmux.ts';
import { bigAnswer, miscounted } from './tui-fixtures.ts';

const BIN = process.env.MOAT_TUI_BIN ?? resolve(import.meta.dir, '../../dist/moat');
const { text, markers } = bigAnswer();
const server = await startFakeAnthropic();
server.script(reply().text(text, { chunkSize: 16, delayMs: 4 }).stop('end_turn'));
const sb = makeSandbox(server.url);
if (process.env.BENCH_NO_COLOR !== '1') delete sb.env.NO_COLOR;
const timeFile = join(tmpdir(), `moat-bench-time-${process.pid}`);
const pipeFile = process.env.KEEP_PIPE ?? join(tmpdir(), `moat-bench-pipe-${process.pid}`);
const s = new TmuxSession(`/usr/bin/time -o ${timeFile} -f '%U %S %M' ${process.env.BENCH_CMD ?? BIN}; sleep 60`, { cols: 100, rows: 30, cwd: sb.cwd, env: sb.env });
try {
  await s.waitFor('Ask moat', { timeoutMs: 10_000 });
  Bun.spawnSync(['tmux', '-S', s.sock, 'pipe-pane', '-t', 'main', '-o', `cat > ${pipeFile}`]);
  await s.typeAndWait('write the report');
  const t0 = performance.now();
  s.keys('Enter');
  await s.waitFor(/para069 closes the answer/, { timeoutMs: 60_000, history: true });
  await s.waitFor(() => !s.screen().includes('to interrupt'), { timeoutMs: 10_000 });
  const wall = (performance.now() - t0) / 1000;
  const bytes = statSync(pipeFile).size;
  const bad = miscounted(s.screen({ history: true }), markers);
  s.keys('C-c');
  s.keys('C-c');
  await s.waitFor(() => {
    try {
      return readFileSync(timeFile, 'utf8').trim().split(/\s+/).length === 3;
    } catch {
      return false;
    }
  }, { timeoutMs: 10_000 });
  const [user = 0, sys = 0, rssKb = 0] = readFileSync(timeFile, 'utf8').trim().split(/\s+/).map(Number);
  console.log(`text: ${text.length} bytes, ${markers.length} marked lines`);
  console.log(`wall (Enter to last line): ${wall.toFixed(2)} s`);
  console.log(`CPU user+sys (whole process, startup included): ${(user + sys).toFixed(2)} s (target < 2 s)`);
  console.log(`peak RSS: ${(rssKb / 1024).toFixed(0)} MB`);
  console.log(`terminal output while streaming: ${(bytes / 1024).toFixed(0)} KB = ${(bytes / text.length).toFixed(2)}x the text (target < 3x)`);
  console.log(`lines not shown exactly once in scrollback: ${bad.length}${bad.length ? ` e.g. ${JSON.stringify(bad.slice(0, 5))}` : ''}`);
} finally {
  await s.kill();
  await server.close();
  // The sandbox's folders (made outside a test run, so no preload removes them).
  tempState.runEnded();
}
