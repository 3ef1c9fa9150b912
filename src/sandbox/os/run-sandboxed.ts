/**
 * runSandboxed: the one way moat starts a process — Bash, hooks, `!cmd`, cron
 * runs — prepared by the OS sandbox at its policy's grants, spawned in its own
 * process group, supervised (timeout, abort, the group ended when it is over)
 * and released; runOwnProcess supervises moat's own runs the same way. MCP stdio servers, which the MCP SDK spawns, take the same
 * preparation (prepareSandboxed).
 */
import type { SandboxGrant, SandboxPolicy } from '../../contracts/index.ts';
import { childProcess, groupStopper } from '../../util/index.ts';
import { processPolicy, type ProcessScope } from '../policy.ts';
import { prepareCommand } from './prepare-command.ts';
import { SandboxUnavailableError, type SandboxedCommand, type SandboxViolation } from './types.ts';

export interface PrepareSandboxedOptions extends ProcessScope {
  cwd: string;
  env: Record<string, string | undefined>;
  /** The process's own temp folder, bound at the system temp path (the caller makes and removes it); default the session's. */
  tempDir?: string;
  /**
   * It was allowed without a question because the sandbox would hold it: refuse (SandboxUnavailableError, code
   * 'unavailable') rather than run it unsandboxed when the sandbox cannot start.
   */
  requireSandbox?: boolean;
}

export interface SuperviseOptions {
  cwd: string;
  /** Between SIGTERM and SIGKILL to the group. */
  killGraceMs: number;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Written to the process's stdin, which is then closed; undefined: no stdin. */
  stdin?: string;
  /** Each stream is piped when its handler is given, else discarded. */
  onStdout?: (chunk: Buffer) => void;
  onStderr?: (chunk: Buffer) => void;
  /**
   * The run is over when its first process exits: the rest of the group is ended (background children would hold
   * the pipes open). Default true; false waits for the pipes to close (a `moat -p` run ends its own children).
   */
  endGroupOnExit?: boolean;
}

export interface RunSandboxedOptions extends PrepareSandboxedOptions, SuperviseOptions {}

export interface RunSandboxedResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** False when it ran outside the sandbox (policy off, or auto on a machine that cannot sandbox). */
  sandboxed: boolean;
  unavailableReason?: string;
  /** What the sandbox refused, and the limits reached. */
  violations: SandboxViolation[];
}

/** The one preparation path: the policy at `level` for this process, as a command line to spawn. */
export async function prepareSandboxed(argv: string[], policy: SandboxPolicy | undefined, level: SandboxGrant, o: PrepareSandboxedOptions): Promise<SandboxedCommand> {
  const p = processPolicy(policy, level, o);
  const prepared = await prepareCommand(argv, {
    cwd: o.cwd,
    env: o.env,
    grants: p.grants,
    mode: p.mode,
    scrubEnv: [...p.scrubEnv],
    ...(p.level === 'off' ? {} : { level: p.level }),
    ...(o.tempDir === undefined ? {} : { tempDir: o.tempDir }),
  });
  if (o.requireSandbox === true && p.level !== 'off' && !prepared.sandboxed) {
    await prepared.finish();
    throw new SandboxUnavailableError(`the OS sandbox could not start (${prepared.unavailableReason ?? 'unknown reason'})`);
  }
  return prepared;
}

interface Ended {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
}

function supervise(prepared: Pick<SandboxedCommand, 'argv' | 'env'>, o: SuperviseOptions): Promise<Ended> {
  return new Promise<Ended>((resolve, reject) => {
    const [file = 'true', ...args] = prepared.argv;
    const child = childProcess().spawn(file, args, {
      cwd: o.cwd,
      // Its own process group: the kill reaches what it started in the background too.
      detached: true,
      stdio: [o.stdin === undefined ? 'ignore' : 'pipe', o.onStdout === undefined ? 'ignore' : 'pipe', o.onStderr === undefined ? 'ignore' : 'pipe'],
      env: prepared.env,
    });
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    const group = groupStopper(child.pid, o.killGraceMs);
    const onAbort = (): void => {
      aborted = true;
      group.stop();
    };
    const deadline =
      o.timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            group.stop();
          }, o.timeoutMs);
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = (): void => {
      clearTimeout(deadline);
      o.signal?.removeEventListener('abort', onAbort);
    };
    if (o.onStdout !== undefined) child.stdout?.on('data', o.onStdout);
    if (o.onStderr !== undefined) child.stderr?.on('data', o.onStderr);
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      if (o.endGroupOnExit !== false) group.stop();
    });
    child.on('close', () => {
      cleanup();
      // Over: no SIGKILL later, when its pid may belong to someone else.
      if (o.endGroupOnExit === false) group.dispose();
      resolve({ exitCode: exit?.code ?? null, signal: exit?.signal ?? null, timedOut, aborted });
    });
    child.on('error', (e) => {
      cleanup();
      reject(e);
    });
    if (child.stdin !== null) {
      // A process that does not read its input must not fail the run.
      child.stdin.on('error', () => {});
      child.stdin.end(o.stdin);
    }
    if (o.signal?.aborted === true) onAbort();
  });
}

/** Prepare, spawn, supervise and release one process; throws SandboxUnavailableError when it may not run. */
export async function runSandboxed(argv: string[], policy: SandboxPolicy | undefined, level: SandboxGrant, o: RunSandboxedOptions): Promise<RunSandboxedResult> {
  const prepared = await prepareSandboxed(argv, policy, level, o);
  let ended: Ended | undefined;
  let violations: SandboxViolation[] = [];
  try {
    ended = await supervise(prepared, o);
  } finally {
    violations = await prepared.finish(ended === undefined ? undefined : { code: ended.exitCode });
  }
  return {
    ...ended,
    sandboxed: prepared.sandboxed,
    ...(prepared.unavailableReason === undefined ? {} : { unavailableReason: prepared.unavailableReason }),
    violations,
  };
}

/**
 * moat's own process (a cron job's `moat -p` run): outside the OS sandbox and with its environment as given — it
 * talks to the model's API and sandboxes what it starts by its own policy — under the same supervision.
 */
export async function runOwnProcess(argv: string[], env: Record<string, string>, o: SuperviseOptions): Promise<Omit<RunSandboxedResult, 'violations' | 'sandboxed'>> {
  return supervise({ argv, env }, o);
}
