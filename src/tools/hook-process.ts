/**
 * Runs one shell line that is not a Bash tool call — a hook command, a
 * custom command's `!`-inclusion — as `bash -c` inside the OS sandbox
 * (workspace-write by default: a formatter hook must write), with the given
 * stdin, stdout and stderr captured, the whole process group killed at the
 * timeout or on abort.
 */
import type { SandboxPolicy } from '../contracts/index.ts';
import { runSandboxed } from '../sandbox/index.ts';

export interface HookProcessOptions {
  cwd: string;
  /** The working folder and --add-dir folders: what the hook may write. */
  roots: readonly string[];
  /** The OS sandbox settings of the session; undefined: no sandbox configured. */
  processSandbox: SandboxPolicy | undefined;
  /** Variables the hook gets on top of moat's environment (CLAUDE_PROJECT_DIR). */
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** The sandbox grants; default workspace-write. 'off' runs it outside the sandbox (the user approved that). */
  level?: 'read-only' | 'workspace-write' | 'off';
}

export interface HookProcessResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** What the OS sandbox refused it (writes, connections), one message each. */
  refused: string[];
}

/** Output beyond this is cut: a hook answers in a few lines of JSON. */
const MAX_OUTPUT = 1 << 20;
const KILL_GRACE_MS = 1000;

export async function runHookProcess(command: string, stdin: string, o: HookProcessOptions): Promise<HookProcessResult> {
  // Loaded on first use: with task-call, output-validator, hook-process, process-grants, discover and wasm-call up front, -p's first byte came 5.4 ms later (CPU +2.9 ms, RSS +1.1 MB; startup bench, n=20).
  const { processScope } = await import('./process-grants.ts');
  const s = o.processSandbox;
  const level = o.level ?? 'workspace-write';
  if (level === 'off' && s?.mode === 'required') throw new Error('[sandbox] mode = "required": a command cannot run outside the sandbox, even when approved');
  const out: string[] = [];
  const err: string[] = [];
  let size = 0;
  const collect = (into: string[]) => (chunk: Buffer) => {
    if (size >= MAX_OUTPUT) return;
    size += chunk.length;
    into.push(chunk.toString('utf8'));
  };
  const r = await runSandboxed(['bash', '-c', command], s, level, {
    cwd: o.cwd,
    env: { ...process.env, ...o.env },
    ...processScope(s, o.roots, o.cwd),
    killGraceMs: KILL_GRACE_MS,
    timeoutMs: o.timeoutMs,
    signal: o.signal,
    stdin,
    onStdout: collect(out),
    onStderr: collect(err),
  });
  return { exitCode: r.exitCode, stdout: out.join(''), stderr: err.join(''), timedOut: r.timedOut, refused: r.violations.map((v) => v.message) };
}
