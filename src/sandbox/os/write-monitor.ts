/**
 * Write refusals, from the sandbox runtime's own reporting: its seccomp loader
 * observes every write-intent syscall inside the sandbox and sends the path to
 * one listener here; a path outside the command's writable roots (or inside a
 * read-only island) is one the mount table refused. The mounts are the
 * boundary; this only tells the model what was refused.
 */
import { realpathSync } from 'node:fs';
import { linuxViolationMonitor, sandboxUtils, type LinuxViolationMonitor } from './runtime-internals.ts';
import type { SandboxViolation } from './types.ts';

const [{ startLinuxSandboxViolationMonitor }, { encodeSandboxedCommand }] = await Promise.all([linuxViolationMonitor(), sandboxUtils()]);

interface Watch {
  roots: readonly string[];
  denied: readonly string[];
  seen: Map<string, SandboxViolation>;
}

const watches = new Map<string, Watch>();
let monitor: LinuxViolationMonitor | undefined;

function under(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}

/**
 * Not refused by the mount table, so a write there is never reported: bubblewrap's own /dev (a tmpfs: /dev/null,
 * /dev/tty, /dev/shm) and the sandbox's own /proc, where the kernel decides file by file (a process may raise its
 * own oom_score_adj). Only /proc/sys and /proc/sysrq-trigger are mounted read-only there (bwrap-argv.ts).
 */
const ALWAYS_WRITABLE = ['/dev/', '/proc/'];
const READ_ONLY_PROC = ['/proc/sys', '/proc/sysrq-trigger'];

function realTarget(path: string): string | undefined {
  try {
    const real = realpathSync(path);
    return real === path ? undefined : real;
  } catch {
    return undefined;
  }
}

function onViolation(line: string, key: string | undefined): void {
  if (key === undefined) return;
  const watch = watches.get(key);
  if (watch === undefined) return;
  const m = /^deny (\S+) (\/.*)$/.exec(line);
  if (m === null) return;
  const path = m[2] as string;
  if (ALWAYS_WRITABLE.some((p) => path.startsWith(p)) && !READ_ONLY_PROC.some((p) => under(path, p))) return;
  const refusedAt = (p: string): boolean => watch.denied.some((d) => under(p, d)) || !watch.roots.some((r) => under(p, r));
  // A link inside a root that leads outside is refused where it leads: name the real target.
  const target = refusedAt(path) ? path : realTarget(path);
  if (target === undefined || !refusedAt(target) || watch.seen.has(target)) return;
  watch.seen.set(target, { kind: 'write', target, message: `write to ${target} refused` });
}

function ensureMonitor(): LinuxViolationMonitor {
  monitor ??= startLinuxSandboxViolationMonitor((v) => onViolation(v.line, v.command), {
    // Every attempt comes through; each command's own roots decide (onViolation).
    allowWritePaths: [],
    denyWritePaths: [],
    resolveCommandText: (key) => key,
  });
  return monitor;
}

/** Loop turns done() waits for the loader's last events: its connection accepted, its lines read. */
const LAST_EVENT_TURNS = 3;

/**
 * The listener would keep moat's event loop alive: it stops once no command is watched, after the caller has its
 * result (stopping costs about a millisecond), unless the next command has started using it meanwhile.
 */
function stopWhenIdle(m: LinuxViolationMonitor): void {
  setImmediate(() => {
    if (watches.size > 0 || monitor !== m) return;
    monitor = undefined;
    m.stop();
  });
}

export interface WriteWatch {
  socketPath: string;
  env: Record<string, string>;
  /** The refusals seen, once the process has exited. */
  done(): Promise<SandboxViolation[]>;
  /** The refusals seen so far: each is recorded as the loader reports it, while the process runs. */
  seen(): SandboxViolation[];
}

/** Start watching the writes of command `id`; undefined when the listener could not start (the sandbox still holds). */
export async function watchWrites(id: string, roots: readonly string[], denied: readonly string[]): Promise<WriteWatch | undefined> {
  const m = ensureMonitor();
  await m.ready;
  const socketPath = m.observeSocketPath;
  if (socketPath === undefined) return undefined;
  const watch: Watch = { roots, denied, seen: new Map() };
  watches.set(id, watch);
  return {
    socketPath,
    env: { SRT_OBSERVE_SOCK: socketPath, SRT_ENCODED_CMD: encodeSandboxedCommand(id) },
    async done() {
      // The last events may still be in the socket when the process has gone: give the listener turns of the loop to
      // accept the connection and read it (setImmediate: a zero timeout waits a whole millisecond).
      for (let turn = 0; turn < LAST_EVENT_TURNS; turn++) await new Promise((r) => setImmediate(r));
      watches.delete(id);
      stopWhenIdle(m);
      return [...watch.seen.values()];
    },
    seen: () => [...watch.seen.values()],
  };
}
