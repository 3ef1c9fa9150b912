// The one runner: stdin and the two streams, the process group ended at the timeout, on abort and when the shell exits, moat's own runs unscrubbed, and no unsandboxed run where the sandbox was required.
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxPolicy } from '../../../src/contracts/index.ts';
import { runOwnProcess, runSandboxed, SandboxUnavailableError, sandboxSupport } from '../../../src/sandbox/index.ts';
import { tempDir } from '../../support/temp.ts';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Waits until `pid` is gone (the group kill reached it), failing after `ms`. */
async function gone(pid: number, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > end) return false;
    await Bun.sleep(20);
  }
  return true;
}

function collector() {
  const chunks: Buffer[] = [];
  return { on: (c: Buffer) => void chunks.push(c), text: () => Buffer.concat(chunks).toString('utf8') };
}

const policy: SandboxPolicy = { mode: 'auto', active: true, scrubEnv: [], allowWrite: [], denyRead: [], denyWrite: [], allowNetwork: [], denyNetwork: [], allowUnixSockets: [] };

describe('runSandboxed, unsandboxed (no policy)', () => {
  test('stdin reaches the process; stdout and stderr come back apart; the provider keys do not reach it', async () => {
    const out = collector();
    const err = collector();
    const r = await runSandboxed(['bash', '-c', 'read line; echo "got $line"; echo "key=${ANTHROPIC_API_KEY-unset}" >&2; exit 3'], undefined, 'workspace-write', {
      cwd: tempDir(),
      env: { ...process.env, ANTHROPIC_API_KEY: 'sk-secret' },
      roots: [],
      killGraceMs: 100,
      stdin: 'hello\n',
      onStdout: out.on,
      onStderr: err.on,
    });
    expect(r).toMatchObject({ exitCode: 3, timedOut: false, aborted: false, sandboxed: false, violations: [] });
    expect(out.text()).toBe('got hello\n');
    expect(err.text()).toBe('key=unset\n');
  });

  test('at the timeout the whole group is stopped, background children too', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'bg.pid');
    const r = await runSandboxed(['bash', '-c', `sleep 60 & echo $! > ${pidFile}; wait`], undefined, 'off', { cwd: dir, env: process.env, roots: [], killGraceMs: 200, timeoutMs: 300 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode === null || r.exitCode !== 0).toBe(true);
    expect(await gone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  });

  test('an abort stops the group; one already aborted stops it at once', async () => {
    const dir = tempDir();
    const ac = new AbortController();
    const out = collector();
    const run = runSandboxed(['bash', '-c', 'echo started; sleep 60'], undefined, 'off', { cwd: dir, env: process.env, roots: [], killGraceMs: 200, signal: ac.signal, onStdout: (c) => (out.on(c), ac.abort()) });
    expect(await run).toMatchObject({ aborted: true, timedOut: false });
    const before = new AbortController();
    before.abort();
    expect(await runSandboxed(['sleep', '60'], undefined, 'off', { cwd: dir, env: process.env, roots: [], killGraceMs: 200, signal: before.signal })).toMatchObject({ aborted: true });
  });

  test('when the shell exits, what it left in the background is ended and does not hold the run open', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'bg.pid');
    const out = collector();
    const r = await runSandboxed(['bash', '-c', `sleep 60 & echo $! > ${pidFile}; echo done`], undefined, 'off', { cwd: dir, env: process.env, roots: [], killGraceMs: 200, timeoutMs: 30_000, onStdout: out.on });
    expect(r).toMatchObject({ exitCode: 0, timedOut: false });
    expect(out.text()).toBe('done\n');
    expect(await gone(Number(readFileSync(pidFile, 'utf8')))).toBe(true);
  });
});

describe('runOwnProcess (a cron run of moat itself)', () => {
  test('the environment as given, and the run lasts until its output is closed', async () => {
    const out = collector();
    const r = await runOwnProcess(['bash', '-c', '(sleep 0.2; echo "late $ANTHROPIC_API_KEY") & echo early'], { PATH: process.env.PATH ?? '/usr/bin:/bin', ANTHROPIC_API_KEY: 'sk-for-moat' }, {
      cwd: tempDir(),
      killGraceMs: 200,
      onStdout: out.on,
      endGroupOnExit: false,
    });
    expect(r.exitCode).toBe(0);
    expect(out.text()).toBe('early\nlate sk-for-moat\n');
  });
});

describe('runSandboxed when the sandbox cannot start', () => {
  test('requireSandbox refuses instead of running the command unsandboxed', async () => {
    const dir = tempDir();
    const marker = join(dir, 'ran');
    // No bubblewrap on this PATH: auto mode would run it outside.
    const env = { ...process.env, PATH: join(dir, 'empty') };
    const run = runSandboxed(['/bin/sh', '-c', `: > ${marker}`], policy, 'read-only', { cwd: dir, env, roots: [dir], killGraceMs: 100, requireSandbox: true });
    await expect(run).rejects.toBeInstanceOf(SandboxUnavailableError);
    await expect(run).rejects.toThrow('the OS sandbox could not start (bubblewrap (bwrap) is not on PATH');
    expect(existsSync(marker)).toBe(false);
    // Without requireSandbox, auto mode runs it and says it was not sandboxed.
    const r = await runSandboxed(['/bin/sh', '-c', `: > ${marker}`], policy, 'read-only', { cwd: dir, env, roots: [dir], killGraceMs: 100 });
    expect(r).toMatchObject({ exitCode: 0, sandboxed: false });
    expect(r.unavailableReason).toContain('bwrap');
  });
});

describe.skipIf(!sandboxSupport().available)('runSandboxed in the sandbox', () => {
  test('read-only: the write is refused and reported; the level decides', async () => {
    const dir = tempDir();
    const target = join(dir, 'out.txt');
    const ro = await runSandboxed(['bash', '-c', `echo x > ${target}`], policy, 'read-only', { cwd: dir, env: process.env, roots: [dir], killGraceMs: 100 });
    expect(ro.sandboxed).toBe(true);
    expect(ro.exitCode).not.toBe(0);
    expect(ro.violations.map((v) => v.message)).toContain(`write to ${target} refused`);
    expect(existsSync(target)).toBe(false);
    const ww = await runSandboxed(['bash', '-c', `echo x > ${target}`], policy, 'workspace-write', { cwd: dir, env: process.env, roots: [dir], killGraceMs: 100 });
    expect(ww).toMatchObject({ exitCode: 0, sandboxed: true, violations: [] });
    expect(readFileSync(target, 'utf8')).toBe('x\n');
  });
});
