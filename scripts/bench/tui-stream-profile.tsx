/**
 * In-process profile of the streaming render: the real App renders into a
 * fake 100x30 TTY (test/tui/fake-tty.tsx), fed the same 20 KB answer at about
 * 1,000 tokens/s as tui-stream.ts. Every write Ink makes is recorded and split
 * into static output (scrollback), the frame drawn again after it, and
 * incremental frames: the split that tells which redraw to make cheaper.
 * Faster to iterate on than the tmux benchmark, which stays the number of record.
 * Run: NODE_ENV=production bun run scripts/bench/tui-stream-profile.tsx
 *      (FLUSH_MS=… overrides the flush interval; DUMP=file saves the writes as JSON)
 */
import { setColorLevel } from '../../src/tui/render/theme.ts';
import { deltas, FakeClient, finished, type Step } from '../../test/tui/fake-client.ts';
import { renderToFakeTty, splitWrites } from '../../test/tui/fake-tty.tsx';
import { bigAnswer } from './tui-fixtures.ts';

setColorLevel(3);
const { text } = bigAnswer();
const controller = new FakeClient();
const steps: Step[] = [{ type: 'turn_started', turn: 1 }];
for (const d of deltas(text, 16)) steps.push(d, { wait: 4 });
steps.push(finished('end_turn'));
controller.scripts.push(steps);
const { app, stdout, unmount } = renderToFakeTty(controller, process.env.FLUSH_MS ? { flushMs: Number(process.env.FLUSH_MS) } : {});
await Bun.sleep(200);
stdout.writes.length = 0;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
app.setEditor({ value: 'write the report', cursor: 16 });
app.submit();
while (app.transcript.run.get().phase !== 'idle') await Bun.sleep(20);
await Bun.sleep(200);
const cpu = process.cpuUsage(cpu0);
const wall = performance.now() - t0;
unmount();

const s = splitWrites(stdout.writes);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`text ${kb(text.length)}; wall ${(wall / 1000).toFixed(2)} s; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (render only, no startup)`);
console.log(`total ${kb(s.total)} = ${(s.total / text.length).toFixed(2)}x; frames ${s.frames} (${s.staticFrames} with static output)`);
console.log(`  static ${kb(s.staticBytes)}, erase ${kb(s.eraseBytes)}, redraw after static ${kb(s.redrawBytes)}, incremental frames ${kb(s.incrementalBytes)}`);
if (process.env.DUMP) await Bun.write(process.env.DUMP, JSON.stringify(stdout.writes));
process.exit(0);
