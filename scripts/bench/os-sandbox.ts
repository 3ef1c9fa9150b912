/**
 * Benchmark: what the OS sandbox adds to a command.
 *
 *   bun scripts/bench/os-sandbox.ts [runs=40]
 *
 * The floor is `bash -c true` spawned directly, measured in the same run.
 * Then the same command through moat's sandbox: read-only grants (what a
 * prompt-free Bash call gets), workspace-write grants, and workspace-write
 * with an allowed host (which starts the filtering proxy on first use).
 * Each is the median wall time of spawn-to-exit including preparing the
 * wrapper and releasing it; the target is under 15 ms added at the median.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareCommand, sandboxSupport } from '../../src/sandbox/index.ts';
import { processGrants, processSandboxSettings } from '../../src/tools/index.ts';

const RUNS = Number(process.argv[2] ?? 40);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

async function measure(label: string, once: () => Promise<void>): Promise<number> {
  await once(); // warm: first use may start helpers
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await once();
    times.push(performance.now() - t0);
  }
  const m = median(times);
  console.log(`${label.padEnd(44)} median ${m.toFixed(2)} ms`);
  return m;
}

const support = sandboxSupport(process.env);
if (!support.available) {
  console.log(`the OS sandbox is not available here: ${support.reason ?? 'unknown'}`);
  process.exit(1);
}
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
    const r = spawnSync(file, args, { cwd: work, env: prepared.env, stdio: 'ignore' });
    await prepared.finish();
    if (r.status !== 0) throw new Error(`${label(level)} exited ${r.status}`);
  };
  const label = (l: string) => `sandboxed bash -c true (${l})`;

  const floor = await measure('floor: bash -c true', async () => {
    spawnSync('bash', ['-c', 'true'], { cwd: work, stdio: 'ignore' });
  });
  const ro = await measure(label('read-only'), sandboxed('read-only', false));
  const ww = await measure(label('workspace-write'), sandboxed('workspace-write', false));
  const net = await measure(label('workspace-write, allowed host'), sandboxed('workspace-write', true));
  console.log('');
  for (const [name, t] of [
    ['read-only', ro],
    ['workspace-write', ww],
    ['workspace-write + proxy', net],
  ] as const) {
    console.log(`${name.padEnd(24)} +${(t - floor).toFixed(2)} ms over the floor (${(t / floor).toFixed(2)}x)`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
