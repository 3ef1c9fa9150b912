/**
 * Runs one shell line that is not a Bash tool call — a hook command, a
 * custom command's `!`-inclusion — as `bash -c` inside the OS sandbox
 * (workspace-write by default: a formatter hook must write), with the given
 * stdin, stdout and stderr captured, the whole process group killed at the
 * timeout or on abort.
 */
import type { SandboxPolicy } from '../contracts/index.ts';
import { DEFAULT_SCRUB_ENV, prepareCommand, type SandboxedCommand } from '../sandbox/index.ts';
import { childProcess, groupStopper } from '../util/index.ts';


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
}

/** Output beyond this is cut: a hook answers in a few lines of JSON. */
const MAX_OUTPUT = 1 << 20;
const KILL_GRACE_MS = 1000;

async function prepare(command: string, o: HookProcessOptions): Promise<SandboxedCommand> {
  const { processGrants } = await import('./process-grants.ts');
  const s = o.processSandbox;
  const env = { ...process.env, ...o.env };
  const level = o.level ?? 'workspace-write';
  if (level === 'off' && s?.mode === 'required') throw new Error('[sandbox] mode = "required": a command cannot run outside the sandbox, even when approved');
  if (s === undefined || s.mode === 'off' || level === 'off') return prepareCommand(['bash', '-c', command], { cwd: o.cwd, env, grants: processGrants('read-only', { ...OFF, scrubEnv: s?.scrubEnv ?? OFF.scrubEnv }, []), mode: 'off' });
  return prepareCommand(['bash', '-c', command], { cwd: o.cwd, env, grants: processGrants(level, s, o.roots, o.cwd), mode: s.mode, scrubEnv: s.scrubEnv, level });
}

const OFF: SandboxPolicy = {
  mode: 'off',
  active: false,
  scrubEnv: [...DEFAULT_SCRUB_ENV],
  allowWrite: [],
  denyRead: [],
  denyWrite: [],
  allowNetwork: [],
  denyNetwork: [],
  allowUnixSockets: [],
};

export async function runHookProcess(command: string, stdin: string, o: HookProcessOptions): Promise<HookProcessResult> {
  const prepared = await prepare(command, o);
  try {
    return await new Promise<HookProcessResult>((resolve, reject) => {
      const [file = 'bash', ...args] = prepared.argv;
      const child = childProcess().spawn(file, args, { cwd: o.cwd, detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: prepared.env });
      const out: string[] = [];
      const err: string[] = [];
      let size = 0;
      let timedOut = false;
      const collect = (into: string[]) => (chunk: Buffer) => {
        if (size >= MAX_OUTPUT) return;
        size += chunk.length;
        into.push(chunk.toString('utf8'));
      };
      child.stdout.on('data', collect(out));
      child.stderr.on('data', collect(err));
      const group = groupStopper(child.pid, KILL_GRACE_MS);
      const stop = (): void => group.stop();
      const deadline = setTimeout(() => {
        timedOut = true;
        stop();
      }, o.timeoutMs);
      o.signal.addEventListener('abort', stop, { once: true });
      let code: number | null = null;
      child.on('exit', (c) => {
        code = c;
        // Background children of the hook would hold the pipes open: the hook is over when its shell is.
        stop();
      });
      child.on('close', () => {
        clearTimeout(deadline);
        o.signal.removeEventListener('abort', stop);
        resolve({ exitCode: code, stdout: out.join(''), stderr: err.join(''), timedOut });
      });
      child.on('error', (e) => {
        clearTimeout(deadline);
        o.signal.removeEventListener('abort', stop);
        reject(e);
      });
      // A hook that does not read its input must not fail the write.
      child.stdin.on('error', () => {});
      child.stdin.end(stdin);
    });
  } finally {
    await prepared.finish();
  }
}
