/**
 * The real App rendered by Ink into a fake interactive terminal (isTTY, fixed
 * size), with every write Ink makes recorded. Unlike ink-testing-library
 * (debug mode: every frame whole), this runs Ink's real terminal path:
 * throttling, incremental line updates, `<Static>` output written once above
 * the frame. Used by the streaming-cost test and scripts/bench/tui-stream-profile.tsx.
 */
import { EventEmitter } from 'node:events';
import { render } from 'ink';
import { AppModel } from '../../src/tui/app-model.ts';
import { App } from '../../src/tui/app.tsx';
import { DEFAULT_KEYMAP } from '../../src/tui/keymap.ts';
import type { FakeClient } from './fake-client.ts';

export class FakeTty extends EventEmitter {
  isTTY = true;
  writes: string[] = [];
  constructor(
    public columns = 100,
    public rows = 30,
  ) {
    super();
  }
  write = (s: string): boolean => {
    this.writes.push(s);
    return true;
  };
  /** What a terminal would do on SIGWINCH: Ink listens for 'resize'. */
  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
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

export function renderToFakeTty(controller: FakeClient, opts: { columns?: number; rows?: number; flushMs?: number } = {}) {
  const app = new AppModel({ client: controller, keymap: DEFAULT_KEYMAP, exit: () => {}, ...(opts.flushMs ? { flushMs: opts.flushMs } : {}) });
  app.start();
  const stdout = new FakeTty(opts.columns, opts.rows);
  const errors: Error[] = [];
  const inst = render(<App app={app} onError={(e) => errors.push(e)} />, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: new FakeStdin() as unknown as NodeJS.ReadStream,
    stderr: new FakeTty() as unknown as NodeJS.WriteStream,
    exitOnCtrlC: false,
    patchConsole: false,
    // The same options as mount.tsx.
    maxFps: 30,
    incrementalRendering: true,
    interactive: true,
  });
  return { app, stdout, errors, unmount: () => inst.unmount() };
}

const BSU = '\x1b[?2026h';
const ESU = '\x1b[?2026l';

export interface WriteSplit {
  total: number;
  /** Text printed into scrollback by `<Static>`. */
  staticText: string;
  staticBytes: number;
  /** Erasing the old frame before static output. */
  eraseBytes: number;
  /** The frame drawn again in full after static output. */
  redrawBytes: number;
  /** Frames that only rewrote changed lines. */
  incrementalBytes: number;
  frames: number;
  staticFrames: number;
}

/**
 * Splits Ink's writes by what they did. Inside one synchronized-output frame
 * with static output, Ink writes three chunks: the erase of the old frame,
 * the static text, then the new frame.
 */
export function splitWrites(writes: string[]): WriteSplit {
  const bytes = (s: string) => Buffer.byteLength(s);
  const out: WriteSplit = { total: 0, staticText: '', staticBytes: 0, eraseBytes: 0, redrawBytes: 0, incrementalBytes: 0, frames: 0, staticFrames: 0 };
  let frame: string[] | undefined;
  for (const w of writes) {
    out.total += bytes(w);
    if (w === BSU) {
      frame = [];
      continue;
    }
    if (w === ESU && frame) {
      out.frames++;
      if (frame.length >= 3) {
        out.staticFrames++;
        out.eraseBytes += bytes(frame[0] ?? '');
        out.staticText += frame[1] ?? '';
        out.staticBytes += bytes(frame[1] ?? '');
        out.redrawBytes += frame.slice(2).reduce((n, s) => n + bytes(s), 0);
      } else out.incrementalBytes += frame.reduce((n, s) => n + bytes(s), 0);
      frame = undefined;
      continue;
    }
    if (frame) frame.push(w);
    else out.incrementalBytes += bytes(w);
  }
  return out;
}
