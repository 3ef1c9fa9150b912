/** The parent side of the sandbox child: the hard backstop that SIGKILLs at the deadline. */
import { childCommand } from './child-command.ts';
import { b64, fromWireResult, isWireRunResult, type ChildRunMessage } from './child-protocol.ts';
import { limitMessages } from './host/errors.ts';
import type { Prepared } from './load.ts';
import type { RunRequest, RunResult } from './types.ts';
import { KILLED_EXIT_CODE } from './exit-codes.ts';

/**
 * The parent side of the sandbox child: the hard backstop. The child runs the
 * call with the same in-process limits; if it is still alive at the deadline
 * (a busy loop with a huge fuel budget, a runaway host call), it gets SIGKILL.
 * `Worker.terminate()` cannot do this in Bun 1.4.5: the thread keeps spinning.
 */

/** Time allowed on top of the deadline for the child to start and load the component (~50–100 ms; the child keeps its own in-process deadline too). */
export const CHILD_GRACE_MS = 300;

export async function runInChild(p: Prepared, req: RunRequest): Promise<RunResult> {
  const started = performance.now();
  const message: ChildRunMessage = {
    mode: 'run',
    cacheDir: p.cacheDir,
    hash: p.meta.hash,
    args: req.args,
    env: req.env,
    stdin: b64.encode(req.stdin ?? new Uint8Array(0)),
    preopens: req.preopens,
    limits: req.limits,
    ...(req.network === undefined ? {} : { network: req.network }),
  };
  const child = Bun.spawn(childCommand(), { stdin: 'pipe', stdout: 'pipe', stderr: 'pipe' });
  let killedAt: 'deadline' | 'abort' | undefined;
  const kill = (why: 'deadline' | 'abort'): void => {
    if (killedAt !== undefined || child.exitCode !== null) return;
    killedAt = why;
    child.kill('SIGKILL');
  };
  const timer = setTimeout(() => kill('deadline'), req.limits.timeoutMs + CHILD_GRACE_MS);
  const onAbort = (): void => kill('abort');
  req.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    // The child may die before reading its input; a broken pipe then is not our error.
    try {
      void child.stdin.write(JSON.stringify(message));
      await child.stdin.end();
    } catch {
      /* reported through the exit below */
    }
    const [out, err] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
    const durationMs = performance.now() - started;
    if (killedAt !== undefined) {
      return {
        exitCode: KILLED_EXIT_CODE,
        stdout: new Uint8Array(0),
        stderr: new Uint8Array(0),
        limitHit: 'timeout',
        message: killedAt === 'abort' ? 'aborted' : limitMessages.timeout(req.limits.timeoutMs),
        fuelUsed: 0,
        peakMemoryBytes: 0,
        durationMs,
      };
    }
    let reply: unknown;
    try {
      reply = JSON.parse(out);
    } catch {
      reply = undefined;
    }
    if (!isWireRunResult(reply)) {
      const why = err.trim() || `exit code ${child.exitCode ?? 'none'}`;
      return { exitCode: 128, stdout: new Uint8Array(0), stderr: new Uint8Array(0), trap: `sandbox child failed: ${why}`, message: `sandbox child failed: ${why}`, fuelUsed: 0, peakMemoryBytes: 0, durationMs };
    }
    return { ...fromWireResult(reply), durationMs };
  } finally {
    clearTimeout(timer);
    req.signal?.removeEventListener('abort', onAbort);
  }
}
