/**
 * The terminal before Node's streams exist. Building process.stdin and
 * process.stdout loads node:tty, node:net and Node's stream modules (about
 * 6 ms of the TUI's start-up, measured in-process on a 2-core machine); Bun's
 * tty binding answers "is it a terminal", "how large" and "raw mode" in well
 * under a millisecond, so the first frame is drawn before the streams are
 * built (Ink builds them when it loads). Where the binding is missing or
 * refuses, the streams answer, as before.
 */
import { writeSync } from 'node:fs';

/** What the first paint needs from the terminal. */
export interface Terminal {
  readonly columns: number;
  readonly rows: number;
  write(text: string): void;
  /** Raw mode: keys typed from now on wait in the terminal's input buffer, unechoed, until something reads them. */
  raw(): void;
  /** Raw mode passes to process.stdin (Ink's), which then restores the terminal's own modes when it leaves raw mode. */
  handOver(): void;
  /** The modes the terminal had before raw(), when the streams never took over (leaving before Ink drew); once. */
  restore(): void;
}

/** Bun's `process.binding('tty_wrap')`: the part of Node's that Bun implements. */
interface TtyWrap {
  isTTY(fd: number): boolean;
  TTY: new (fd: number, ctx: object) => TtyHandle;
}

interface TtyHandle {
  getWindowSize(size: number[]): unknown;
  /** 0 restores the modes saved on the way into raw mode, 1 is raw; returns 0 on success. */
  setRawMode(mode: number): unknown;
}

function ttyWrap(): TtyWrap | undefined {
  try {
    const b = process.binding('tty_wrap') as Partial<TtyWrap>;
    return typeof b.isTTY === 'function' && typeof b.TTY === 'function' ? (b as TtyWrap) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether stdin and stdout are both a terminal, without building the streams where Bun's binding answers. */
export function stdioIsTerminal(): boolean {
  const wrap = ttyWrap();
  if (wrap) {
    try {
      return wrap.isTTY(0) && wrap.isTTY(1);
    } catch {
      // fall through to the streams
    }
  }
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}

/**
 * Writes all of `bytes` to stdout. A terminal's descriptor is normally
 * blocking (creating the handles above leaves its flags alone), but another
 * program sharing it may have made it non-blocking: then a write can be
 * partial or refused for now (EAGAIN), and the frame must still go out whole,
 * as Ink's takeover erases exactly the rows it has.
 */
function writeAll(bytes: Buffer): void {
  for (let at = 0; at < bytes.length; ) {
    try {
      at += writeSync(1, bytes, at);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Bun.sleepSync(1);
    }
  }
}

function throughBinding(wrap: TtyWrap): Terminal | undefined {
  if (!wrap.isTTY(0) || !wrap.isTTY(1)) return undefined;
  const input = new wrap.TTY(0, {});
  const size = [0, 0];
  new wrap.TTY(1, {}).getWindowSize(size);
  const [columns = 0, rows = 0] = size;
  let isRaw = false;
  const setRaw = (on: boolean) => {
    if (input.setRawMode(on ? 1 : 0) !== 0) throw new Error('the terminal refused raw mode');
    isRaw = on;
  };
  return {
    columns,
    rows,
    write: (text) => writeAll(Buffer.from(text)),
    raw: () => setRaw(true),
    handOver: () => {
      if (!isRaw) return;
      // The stream saves the modes it finds as the ones to restore, so the terminal's own are put back first.
      // Bytes already typed stay in the input buffer across both switches (checked in tmux).
      setRaw(false);
      process.stdin.setRawMode(true);
    },
    restore: () => {
      if (isRaw) setRaw(false);
    },
  };
}

function throughStreams(): Terminal | undefined {
  if (process.stdin.isTTY !== true || process.stdout.isTTY !== true) return undefined;
  return {
    columns: process.stdout.columns,
    rows: process.stdout.rows,
    write: (text) => void process.stdout.write(text),
    raw: () => void process.stdin.setRawMode(true),
    handOver: () => {},
    restore: () => void process.stdin.setRawMode(false),
  };
}

/** The terminal on stdin and stdout, or undefined when either is not one. */
export function openTerminal(): Terminal | undefined {
  const wrap = ttyWrap();
  if (wrap) {
    try {
      return throughBinding(wrap);
    } catch {
      // fall through to the streams
    }
  }
  return throughStreams();
}
