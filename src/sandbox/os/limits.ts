/**
 * Resource limits of one sandboxed command: processes, memory and file size.
 * Processes and memory are counted for the command as a whole in a cgroup of
 * its own where moat can make one (cgroup v2, or v1's pids and memory
 * hierarchies, writable: usually when moat runs as root or in a delegated
 * cgroup); otherwise per process with setrlimit (util-linux prlimit, inside
 * the sandbox: RLIMIT_NPROC counts the sandbox's own user namespace, and does
 * not bind uid 0; RLIMIT_DATA). File size is always RLIMIT_FSIZE. A limit
 * that was reached is reported as a refusal, with the key that raises it.
 */
import { mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResourceLimits, SandboxViolation } from './types.ts';

export const DEFAULT_LIMITS: Required<ResourceLimits> = { pids: 4096, memoryBytes: 2 * 2 ** 30, fileSizeBytes: 16 * 2 ** 30 };

/** SIGXFSZ's exit status through bubblewrap (128 + 25). */
const FILE_SIZE_EXIT = 153;

export function formatBytes(n: number): string {
  for (const [unit, size] of [['TiB', 2 ** 40], ['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10]] as const) {
    if (n >= size) return `${Number((n / size).toFixed(1))} ${unit}`;
  }
  return `${n} bytes`;
}

interface Cgroups {
  /** Where a command's cgroup is made, per controller (one folder for v2). */
  pids: string;
  memory: string;
  v2: boolean;
}

let found: Cgroups | null | undefined;

function ownPath(controller: string): string | undefined {
  try {
    for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const [, names, path] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
      if (names !== undefined && path !== undefined && names.split(',').includes(controller)) return path;
    }
  } catch {
    // No /proc: no cgroups.
  }
  return undefined;
}

/** A child folder can be made at `dir` and has `file` (the controller is on there). */
function usable(dir: string, file: string): boolean {
  const probe = join(dir, `moat-probe-${process.pid}`);
  try {
    mkdirSync(probe);
  } catch {
    return false;
  }
  try {
    readFileSync(join(probe, file));
    return true;
  } catch {
    return false;
  } finally {
    rmdirSync(probe);
  }
}

/** Where this moat can make cgroups with the pids and memory controllers, looked for once. */
function cgroups(): Cgroups | null {
  if (found !== undefined) return found;
  const v2 = ownPath('');
  if (v2 !== undefined) {
    const dir = join('/sys/fs/cgroup', v2);
    if (usable(dir, 'pids.max') && usable(dir, 'memory.max')) {
      removeStaleCgroups([dir]);
      return (found = { pids: dir, memory: dir, v2: true });
    }
  }
  const pids = ownPath('pids');
  const memory = ownPath('memory');
  if (pids !== undefined && memory !== undefined) {
    const p = join('/sys/fs/cgroup/pids', pids);
    const m = join('/sys/fs/cgroup/memory', memory);
    if (usable(p, 'pids.max') && usable(m, 'memory.limit_in_bytes')) {
      removeStaleCgroups([p, m]);
      return (found = { pids: p, memory: m, v2: false });
    }
  }
  return (found = null);
}

export interface CommandLimits {
  /** Put in front of bubblewrap: moves the command into its cgroup before it starts. Empty without one. */
  outer: string[];
  /** Put in front of the command, inside the sandbox: setrlimit. */
  inner: string[];
  /** What was reached, once the command has exited (its exit code when the caller has it), and the cgroup removed. */
  finish(exitCode?: number | null): SandboxViolation[];
}

function read(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function counter(text: string, name: string): number {
  return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
}

/**
 * This process's hard limit named `name` in /proc/self/limits (`Max processes`), Infinity when unlimited or unknown.
 * An unprivileged process cannot raise a hard limit: asked for more (a container started with `--ulimit nproc=1024`),
 * prlimit fails and so would every command; the command gets the lower of the two instead.
 */
export function hardLimit(name: string, limits: string = read('/proc/self/limits')): number {
  const m = new RegExp(`^${name}\\s+\\S+\\s+(\\S+)`, 'm').exec(limits);
  const n = Number(m?.[1]);
  return Number.isFinite(n) ? n : Infinity;
}

export function commandLimits(id: string, limits: ResourceLimits | undefined, prlimit: string): CommandLimits {
  const l = { ...DEFAULT_LIMITS, ...limits };
  const cg = cgroups();
  const hit = (limit: string, message: string): SandboxViolation => ({ kind: 'limit', target: limit, message });
  const fileSize = (code: number | null | undefined): SandboxViolation[] =>
    code === FILE_SIZE_EXIT ? [hit('file-size', `killed: file size limit ${formatBytes(l.fileSizeBytes)} reached; raise [sandbox] file_size_limit`)] : [];
  if (cg === null) {
    return {
      outer: [],
      inner: [
        prlimit,
        `--nproc=${Math.min(l.pids, hardLimit('Max processes'))}`,
        `--data=${Math.min(l.memoryBytes, hardLimit('Max data size'))}`,
        `--fsize=${Math.min(l.fileSizeBytes, hardLimit('Max file size'))}`,
        '--',
      ],
      finish: fileSize,
    };
  }
  const name = `moat-${process.pid}-${id}`;
  const dirs = [...new Set([join(cg.pids, name), join(cg.memory, name)])];
  for (const d of dirs) mkdirSync(d);
  const pidsDir = join(cg.pids, name);
  const memDir = join(cg.memory, name);
  writeFileSync(join(pidsDir, 'pids.max'), String(l.pids));
  if (cg.v2) {
    writeFileSync(join(memDir, 'memory.max'), String(l.memoryBytes));
    // Swapping would only make the limit slow to reach.
    try {
      writeFileSync(join(memDir, 'memory.swap.max'), '0');
    } catch {
      // No swap accounting: nothing to turn off.
    }
  } else {
    writeFileSync(join(memDir, 'memory.limit_in_bytes'), String(l.memoryBytes));
    try {
      writeFileSync(join(memDir, 'memory.memsw.limit_in_bytes'), String(l.memoryBytes));
    } catch {
      // No swap accounting.
    }
  }
  // The file-size limit is set here too (in 512-byte blocks), inherited through bubblewrap: one program fewer to start.
  const script = `ulimit -f ${Math.ceil(l.fileSizeBytes / 512)} || exit 125; while [ "$1" != -- ]; do echo $$ > "$1" || exit 125; shift; done; shift; exec "$@"`;
  // A fork bomb at its limit keeps retrying until the command's timeout: once a fork is refused, the command is ended.
  const watch = setInterval(() => {
    if (counter(read(join(pidsDir, 'pids.events')), 'max') > 0) killAll(pidsDir, cg.v2);
  }, 100);
  watch.unref();
  return {
    outer: ['/bin/sh', '-c', script, 'moat-limits', ...dirs.map((d) => join(d, 'cgroup.procs')), '--'],
    inner: [],
    finish(code) {
      clearInterval(watch);
      const out: SandboxViolation[] = [];
      if (counter(read(join(pidsDir, 'pids.events')), 'max') > 0) out.push(hit('pids', `process limit ${l.pids} reached (new processes were refused); raise [sandbox] pids_limit`));
      const oom = counter(read(join(memDir, cg.v2 ? 'memory.events' : 'memory.oom_control')), 'oom_kill');
      if (oom > 0) out.push(hit('memory', `killed: memory limit ${formatBytes(l.memoryBytes)} reached; raise [sandbox] memory_limit`));
      out.push(...fileSize(code));
      release(dirs);
      return out;
    },
  };
}

/** End every process of a cgroup: the sandbox's PID 1 among them takes the rest of its namespace along. */
function killAll(dir: string, v2: boolean): void {
  if (v2) {
    try {
      writeFileSync(join(dir, 'cgroup.kill'), '1');
      return;
    } catch {
      // Before Linux 5.14: one by one.
    }
  }
  for (const pid of read(join(dir, 'cgroup.procs')).split('\n')) {
    try {
      if (pid !== '') process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

function removed(dir: string): boolean {
  try {
    rmdirSync(dir);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'EBUSY';
  }
}

/**
 * Remove the command's cgroups. The kernel tears a killed namespace down a
 * moment after its PID 1 has gone, so what is still busy is retried in the
 * background (never blocking the next command), once more when moat exits,
 * and by the next moat if this one dies first (removeStaleCgroups).
 */
const pending = new Set<string>();
let exitHook = false;

function release(dirs: readonly string[], tries = 40): void {
  for (const d of dirs) {
    if (removed(d)) pending.delete(d);
    else pending.add(d);
  }
  const left = dirs.filter((d) => pending.has(d));
  if (left.length === 0) return;
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => void [...pending].forEach(removed));
  }
  if (tries > 0) setTimeout(() => release(left, tries - 1), 25).unref();
}

/** Remove `moat-<pid>-*` cgroups whose moat is gone. */
function removeStaleCgroups(dirs: readonly string[]): void {
  for (const dir of dirs) {
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names) {
      const pid = Number(/^moat-(\d+)-/.exec(name)?.[1] ?? Number.NaN);
      if (Number.isNaN(pid) || pid === process.pid) continue;
      try {
        process.kill(pid, 0);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ESRCH') removed(join(dir, name));
      }
    }
  }
}
