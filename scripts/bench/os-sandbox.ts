/**
 * Benchmark: what the OS sandbox adds to a command, in total and layer by layer.
 *
 *   bun scripts/bench/os-sandbox.ts [runs=40]
 *
 * The floor is `bash -c true` spawned directly, measured in the same run.
 * Then the same command through moat's sandbox: read-only grants (what a
 * prompt-free Bash call gets), workspace-write grants, and workspace-write
 * with an allowed host (which starts the filtering proxy on first use).
 * Each is the median wall time of spawn-to-exit including preparing the
 * wrapper and releasing it; the target is under 15 ms added at the median.
 *
 * The layers are the read-only command line cut after each program of its
 * chain — bubblewrap, the seccomp loader, setpriv, the limits wrapper — plus
 * a bare bubblewrap and, for comparison, bubblewrap loading a Unix-socket
 * filter itself (--seccomp, --disable-userns) in place of the loader and
 * setpriv: what the loader's nested namespaces and write observation cost.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareCommand, sandboxSupport } from '../../src/sandbox/index.ts';
import { processGrants, processSandboxSettings } from '../../src/tools/index.ts';

const RUNS = Number(process.argv[2] ?? 40);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

type Once = () => Promise<void> | void;

/**
 * Median wall time of each variant, run round-robin (one run of each in turn, RUNS times) so that the load of a
 * shared machine falls on all of them alike; each is run once first to warm what it starts on first use.
 */
async function measureAll(variants: readonly (readonly [string, Once])[]): Promise<number[]> {
  for (const [, once] of variants) await once();
  const times = variants.map((): number[] => []);
  for (let i = 0; i < RUNS; i++) {
    for (const [k, [, once]] of variants.entries()) {
      const t0 = performance.now();
      await once();
      times[k]?.push(performance.now() - t0);
      // Between two Bash calls the event loop turns (the model's reply comes in): let what waits for that run, untimed.
      await new Promise((r) => setImmediate(r));
    }
  }
  return variants.map(([label], k) => {
    const m = median(times[k] ?? []);
    console.log(`${label.padEnd(60)} median ${m.toFixed(2)} ms`);
    return m;
  });
}

function run(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv = process.env, extraFd?: number): void {
  const [file = 'true', ...args] = argv;
  const stdio: ('ignore' | 'pipe' | number)[] = extraFd === undefined ? ['ignore', 'ignore', 'pipe'] : ['ignore', 'ignore', 'pipe', extraFd];
  const r = spawnSync(file, args, { cwd, env, stdio });
  if (r.status !== 0) throw new Error(`${argv.slice(0, 3).join(' ')} … exited ${r.status}: ${String(r.stderr).trim()}`);
}

/**
 * A classic-BPF program denying socket(AF_UNIX, …) with EPERM on x86-64 (the
 * loader's "unix" rule, without its namespace rules), for bubblewrap's --seccomp.
 */
function unixBlockFilter(): Buffer {
  const ins: [number, number, number, number][] = [
    [0x20, 0, 0, 4], // ld arch
    [0x15, 1, 0, 0xc000003e], // jeq AUDIT_ARCH_X86_64
    [0x06, 0, 0, 0x00050001], // ret errno(EPERM)
    [0x20, 0, 0, 0], // ld nr
    [0x15, 0, 3, 41], // jeq socket
    [0x20, 0, 0, 16], // ld args[0]
    [0x15, 0, 1, 1], // jeq AF_UNIX
    [0x06, 0, 0, 0x00050001], // ret errno(EPERM)
    [0x06, 0, 0, 0x7fff0000], // ret allow
  ];
  const b = Buffer.alloc(ins.length * 8);
  ins.forEach(([code, jt, jf, k], i) => {
    b.writeUInt16LE(code, i * 8);
    b.writeUInt8(jt, i * 8 + 2);
    b.writeUInt8(jf, i * 8 + 3);
    b.writeUInt32LE(k, i * 8 + 4);
  });
  return b;
}

const support = sandboxSupport(process.env);
if (!support.available || support.bwrap === undefined) {
  console.log(`the OS sandbox is not available here: ${support.reason ?? 'unknown'}`);
  process.exit(1);
}
const bwrap = support.bwrap;
const work = realpathSync(mkdtempSync(join(tmpdir(), 'moat-bench-sbx-')));
try {
  const settings = processSandboxSettings(
    { mode: 'required', scrubEnv: undefined, scrubEnvExtra: [], allowWrite: [], denyRead: [], denyWrite: [], allowNetwork: ['example.com'], denyNetwork: [], allowUnixSockets: [] },
    { allow: [], deny: [] },
    { projectRoot: work, home: process.env.HOME ?? '/root' },
  );
  const sandboxed = (level: 'read-only' | 'workspace-write', withNetwork: boolean) => async () => {
    const grants = processGrants(level, withNetwork ? settings : { ...settings, allowNetwork: [] }, [work]);
    const prepared = await prepareCommand(['bash', '-c', 'true'], { cwd: work, env: process.env, grants, mode: 'required', level });
    const [file = 'bash', ...args] = prepared.argv;
    const r = spawnSync(file, args, { cwd: work, env: prepared.env, stdio: ['ignore', 'ignore', 'pipe'] });
    await prepared.finish();
    if (r.status !== 0) throw new Error(`${label(level)} exited ${r.status}: ${r.error?.message ?? String(r.stderr).trim()} (${file})`);
  };
  const label = (l: string) => `sandboxed bash -c true (${l})`;

  const [floor = NaN, ro = NaN, ww = NaN, net = NaN] = await measureAll([
    ['floor: bash -c true', () => run(['bash', '-c', 'true'], work)],
    [label('read-only'), sandboxed('read-only', false)],
    [label('workspace-write'), sandboxed('workspace-write', false)],
    [label('workspace-write, allowed host'), sandboxed('workspace-write', true)],
  ]);

  // The layers: one read-only command line, prepared once, cut after each program of its chain.
  console.log('\nlayers (read-only; one prepared command line, cut after each program):');
  const grants = processGrants('read-only', { ...settings, allowNetwork: [] }, [work]);
  const prepared = await prepareCommand(['bash', '-c', 'true'], { cwd: work, env: process.env, grants, mode: 'required', level: 'read-only' });
  const full = prepared.argv;
  const at = full.indexOf(bwrap);
  const chdir = full.indexOf('--chdir', at);
  const bwrapPart = full.slice(at, chdir + 3); // bwrap … --chdir <cwd> --
  const loader = full[chdir + 3]?.endsWith('apply-seccomp') === true ? [full[chdir + 3] as string] : [];
  // setpriv as a root caller gets it (launcher.ts), measured whoever runs the benchmark.
  const setpriv = [support.setpriv ?? 'setpriv', '--inh-caps=-all', '--ambient-caps=-all', '--bounding-set=-all', '--no-new-privs', '--'];
  const bash = ['bash', '-c', 'true'];
  const variants: [string, Once][] = [
    ['floor: bash -c true', () => run(bash, work)],
    ['bare bwrap (--unshare-all, / read-only, /dev, /proc)', () => run([bwrap, '--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--', ...bash], work)],
    ["moat's bwrap command line", () => run([...bwrapPart, ...bash], work, prepared.env)],
    ['+ seccomp loader (nested namespaces, write observation)', () => run([...bwrapPart, ...loader, ...bash], work, prepared.env)],
    ['+ setpriv (capabilities, no_new_privs)', () => run([...bwrapPart, ...loader, ...setpriv, ...bash], work, prepared.env)],
    ['+ limits wrapper (cgroup, ulimit -f): the whole line', () => run([...full.slice(0, at), ...bwrapPart, ...loader, ...setpriv, ...bash], work, prepared.env)],
  ];
  if (process.arch === 'x64') {
    const filterFile = join(work, 'unix-block.bpf');
    writeFileSync(filterFile, unixBlockFilter());
    const alternative = [bwrap, '--unshare-user', '--disable-userns', '--seccomp', '3', ...bwrapPart.slice(1)];
    // The filter holds: a Unix socket cannot be made under it.
    const probeFd = openSync(filterFile, 'r');
    const probe = spawnSync(bwrap, [...alternative.slice(1), 'python3', '-c', 'import socket; socket.socket(socket.AF_UNIX)'], { cwd: work, env: prepared.env, stdio: ['ignore', 'ignore', 'pipe', probeFd] });
    closeSync(probeFd);
    console.log(`  (under --seccomp, socket(AF_UNIX) is refused: ${/PermissionError/.test(String(probe.stderr)) ? 'yes' : `no? ${String(probe.stderr).trim()}`})`);
    variants.push([
      'alternative: bwrap --seccomp --disable-userns, no loader',
      () => {
        // bubblewrap reads the program to its end: a fresh descriptor for each run.
        const fd = openSync(filterFile, 'r');
        try {
          run([...alternative, ...bash], work, prepared.env, fd);
        } finally {
          closeSync(fd);
        }
      },
    ]);
  }
  const measured = await measureAll(variants.map(([name, once]) => [`  ${name}`, once] as const));
  await prepared.finish();
  const layers = variants.map(([name], k): [string, number] => [name, measured[k] ?? NaN]);

  console.log('');
  for (const [name, t] of [
    ['read-only', ro],
    ['workspace-write', ww],
    ['workspace-write + proxy', net],
  ] as const) {
    console.log(`${name.padEnd(24)} +${(t - floor).toFixed(2)} ms over the floor (${(t / floor).toFixed(2)}x)`);
  }
  console.log('\nlayer by layer (each over the one before; bare bwrap and the alternative over the floor):');
  const layerFloor = layers[0]?.[1] ?? floor;
  let before = layerFloor;
  for (const [name, t] of layers.slice(1)) {
    if (name.startsWith('alternative') || name.startsWith('bare')) {
      console.log(`  ${name.padEnd(58)} +${(t - layerFloor).toFixed(2)} ms over the floor`);
      continue;
    }
    console.log(`  ${name.padEnd(58)} +${(t - before).toFixed(2)} ms`);
    before = t;
  }
  const setprivCost = (layers[4]?.[1] ?? NaN) - (layers[3]?.[1] ?? NaN);
  console.log(`  ${'whole line, as root (with setpriv)'.padEnd(58)} +${(before - layerFloor).toFixed(2)} ms over the floor`);
  console.log(`  ${'whole line, not root (no setpriv: launcher.ts)'.padEnd(58)} +${(before - setprivCost - layerFloor).toFixed(2)} ms over the floor`);
  console.log(`  ${'prepare + release (read-only total − whole line)'.padEnd(58)} +${(ro - floor - (before - layerFloor)).toFixed(2)} ms`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
