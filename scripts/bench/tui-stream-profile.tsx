/**
 * In-process profile of the streaming render: the real App renders into a
 * fake 100x30 TTY, fed the same 20 KB answer at ~1,000 tokens/s as
 * tui-stream.ts. Every write Ink makes is recorded, so the bytes can be split
 * into static output (scrollback), frames that follow a static write (a full
 * redraw of the dynamic area), and incremental frames — the split that tells
 * which redraw to make cheaper. Faster to iterate on than the tmux benchmark;
 * the tmux one stays the number of record.
 * Run: bun run scripts/bench/tui-stream-profile.tsx
 */
import { EventEmitter } from 'node:events';
import { render } from 'ink';
import { AppModel } from '../../src/tui/app-model.ts';
import { App } from '../../src/tui/app.tsx';
import { DEFAULT_KEYMAP } from '../../src/tui/keymap.ts';
import { setColorLevel } from '../../src/tui/render/theme.ts';
import { deltas, FakeController, finished, type Step } from '../../test/tui/fake-controller.ts';
import { bigAnswer } from './tui-fixtures.ts';

class FakeTty extends EventEmitter {
  isTTY = true;
  columns = 100;
  rows = 30;
  writes: string[] = [];
  write = (s: string): boolean => {
    this.writes.push(s);
    return true;
  };
}
class FakeStdin extends EventEmitter {
  isTTY = true;
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
  read(): null {
    return null;
  }
}

setColorLevel(3);
const { text } = bigAnswer();
const controller = new FakeController();
const steps: Step[] = [{ type: 'turn_started', turn: 1 }];
for (const d of deltas(text, 16)) steps.push(d, { wait: 4 });
steps.push(finished('end_turn'));
controller.scripts.push(steps);
const app = new AppModel({ controller, keymap: DEFAULT_KEYMAP, exit: () => {} });
app.start();
const stdout = new FakeTty();
const inst = render(<App app={app} onError={(e) => console.error(e)} />, {
  stdout: stdout as unknown as NodeJS.WriteStream,
  stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
  stderr: new FakeTty() as unknown as NodeJS.WriteStream,
  exitOnCtrlC: false,
  patchConsole: false,
  maxFps: 30,
  incrementalRendering: true,
});
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
inst.unmount();

const BSU = '\x1b[?2026h';
const ESU = '\x1b[?2026l';
// Group writes into frames (between BSU and ESU); inside a frame with static output,
// Ink writes: erase of the old frame, the static text, then the new frame.
let staticBytes = 0;
let eraseBytes = 0;
let redrawAfterStatic = 0;
let incremental = 0;
let staticFrames = 0;
let frames = 0;
let inFrame: string[] | undefined;
const bytes = (s: string) => Buffer.byteLength(s);
for (const w of stdout.writes) {
  if (w === BSU) {
    inFrame = [];
    continue;
  }
  if (w === ESU && inFrame) {
    frames++;
    if (inFrame.length >= 3) {
      staticFrames++;
      eraseBytes += bytes(inFrame[0] ?? '');
      staticBytes += bytes(inFrame[1] ?? '');
      redrawAfterStatic += inFrame.slice(2).reduce((n, s) => n + bytes(s), 0);
    } else incremental += inFrame.reduce((n, s) => n + bytes(s), 0);
    inFrame = undefined;
    continue;
  }
  if (inFrame) inFrame.push(w);
  else incremental += bytes(w);
}
const total = stdout.writes.reduce((n, s) => n + bytes(s), 0);
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`text ${kb(text.length)}; wall ${(wall / 1000).toFixed(2)} s; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s (render only, no startup)`);
console.log(`total ${kb(total)} = ${(total / text.length).toFixed(2)}x; frames ${frames} (${staticFrames} with static output)`);
console.log(`  static ${kb(staticBytes)}, erase ${kb(eraseBytes)}, redraw after static ${kb(redrawAfterStatic)}, incremental frames ${kb(incremental)}`);
if (process.env.DUMP) await Bun.write(process.env.DUMP, JSON.stringify(stdout.writes));
process.exit(0);
