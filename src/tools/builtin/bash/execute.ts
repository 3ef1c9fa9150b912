/** What the Bash tool does once called: the command run in its own process group inside the OS sandbox, its output capped. */
import { childProcess } from '../../../util/index.ts';
import { ToolError, type ToolContext, type ToolResult } from '../../types.ts';
import type { SandboxedCommand, SandboxViolation } from '../../../sandbox/index.ts';
import { MAX_BASH_TIMEOUT_MS, type BashInput as Input } from './schema.ts';
import { OutputBuffer } from './output-buffer.ts';
import { groupStopper } from '../../../util/index.ts';
import { describeViolations, noNetworkNote, prepareBash } from './sandboxed-spawn.ts';

/** Output for the model: this many characters from the start and from the end. */
const BASH_OUTPUT_HEAD = 15_000;
const BASH_OUTPUT_TAIL = 15_000;
/** Between SIGTERM and SIGKILL: long enough for a clean shutdown, short enough not to hang a turn. */
const KILL_GRACE_MS = 2_000;
const UPDATE_EVERY_MS = 100;
const LIVE_TAIL_CHARS = 4_000;

interface Ended {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
}

function run(input: Input, ctx: ToolContext, timeoutMs: number, out: OutputBuffer, prepared: SandboxedCommand): Promise<Ended> {
  return new Promise<Ended>((resolve, reject) => {
    const started = Date.now();
    const [file = 'bash', ...args] = prepared.argv;
    const child = childProcess().spawn(file, args, {
      cwd: ctx.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: prepared.env,
    });
    const decoder = new TextDecoder();
    let timedOut = false;
    let aborted = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let updateTimer: ReturnType<typeof setTimeout> | undefined;
    const group = groupStopper(child.pid, KILL_GRACE_MS);
    const stopGroup = (): void => group.stop();
    const sendUpdate = (): void => {
      updateTimer = undefined;
      ctx.onUpdate({
        type: 'command',
        command: input.command,
        exitCode: null,
        durationMs: Date.now() - started,
        output: out.lastChars(LIVE_TAIL_CHARS),
      });
    };
    const onAbort = (): void => {
      aborted = true;
      stopGroup();
    };
    const deadline = setTimeout(() => {
      timedOut = true;
      stopGroup();
    }, timeoutMs);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const cleanup = (): void => {
      clearTimeout(deadline);
      if (updateTimer !== undefined) clearTimeout(updateTimer);
      ctx.signal.removeEventListener('abort', onAbort);
    };

    child.stdout?.on('data', (chunk: Buffer) => {
      out.push(decoder.decode(chunk, { stream: true }));
      updateTimer ??= setTimeout(sendUpdate, UPDATE_EVERY_MS);
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // The shell is done; anything it left running in the background would hold the pipe open forever.
      stopGroup();
    });
    child.on('close', () => {
      cleanup();
      out.push(decoder.decode());
      resolve({ exitCode: exit?.code ?? null, signal: exit?.signal ?? null, timedOut, aborted });
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      cleanup();
      if (err.code === 'ENOENT') reject(new ToolError(`Cannot run the command: the working folder ${ctx.cwd} or bash itself was not found.`));
      else reject(err);
    });
    if (ctx.signal.aborted) onAbort();
  });
}

export async function executeBash(input: Input, ctx: ToolContext): Promise<ToolResult> {
  const timeoutMs = Math.min(input.timeout ?? ctx.bashTimeoutMs, MAX_BASH_TIMEOUT_MS);
  const out = new OutputBuffer(BASH_OUTPUT_HEAD, BASH_OUTPUT_TAIL);
  let violations: SandboxViolation[] = [];
  const started = Date.now();
  // `exec 2>&1` first: one pipe for both streams keeps stdout and stderr in the order they were written.
  const prepared = await prepareBash(`exec 2>&1\n${input.command}`, ctx);
  let ended: Ended | undefined;
  try {
    ended = await run(input, ctx, timeoutMs, out, prepared);
  } finally {
    violations = await prepared.finish(ended === undefined ? undefined : { code: ended.exitCode });
  }
  const durationMs = Date.now() - started;
  const refused = describeViolations(violations, ctx);
  const output = out.length > 0 ? out.text().replace(/\n+$/, '') : '(no output)';
  let status = '';
  if (ended.timedOut) status = `Command timed out after ${timeoutMs / 1000}s and was stopped. Raise timeout (max ${MAX_BASH_TIMEOUT_MS}) if it needs longer.`;
  else if (ended.aborted) status = 'Command aborted by the user.';
  else if (ended.exitCode === null) status = `Command killed by ${ended.signal ?? 'a signal'}.`;
  else if (ended.exitCode !== 0) status = `Exit code ${ended.exitCode}`;
  const sandboxNote = refused.length > 0 ? `\n\nRefused by the sandbox:\n${refused.map((r) => `- ${r}`).join('\n')}` : '';
  const offline = prepared.sandboxed && ended.exitCode !== null && ended.exitCode !== 0 && !violations.some((v) => v.kind === 'network') ? noNetworkNote(ctx) : undefined;
  const grant = prepared.sandboxed ? (ctx.sandbox ?? 'read-only') : ctx.processSandbox === undefined ? undefined : 'off';
  return {
    content: `${status === '' ? output : `${output}\n\n${status}`}${sandboxNote}${offline === undefined ? '' : `\n\n${offline}`}`,
    isError: status !== '',
    display: {
      type: 'command',
      command: input.command,
      exitCode: ended.exitCode,
      durationMs,
      output: out.lastChars(LIVE_TAIL_CHARS),
      ...(ended.timedOut ? { timedOut: true } : {}),
      ...(grant === undefined ? {} : { sandbox: grant }),
      ...(refused.length > 0 ? { violations: violations.map((v) => v.message) } : {}),
    },
  };
}
