/** What the Bash tool does once called: the command run in its own process group inside the OS sandbox, its output capped. */
import { type ToolContext, type ToolResult } from '../../types.ts';
import { MAX_BASH_TIMEOUT_MS, type BashInput as Input } from './schema.ts';
import { OutputBuffer } from './output-buffer.ts';
import { bashResult, runBash } from './sandboxed-spawn.ts';

/** Output for the model: this many characters from the start and from the end. */
const BASH_OUTPUT_HEAD = 15_000;
const BASH_OUTPUT_TAIL = 15_000;
/** Between SIGTERM and SIGKILL: long enough for a clean shutdown, short enough not to hang a turn. */
const KILL_GRACE_MS = 2_000;
const UPDATE_EVERY_MS = 100;
const LIVE_TAIL_CHARS = 4_000;

export async function executeBash(input: Input, ctx: ToolContext): Promise<ToolResult> {
  const timeoutMs = Math.min(input.timeout ?? ctx.bashTimeoutMs, MAX_BASH_TIMEOUT_MS);
  const out = new OutputBuffer(BASH_OUTPUT_HEAD, BASH_OUTPUT_TAIL);
  const started = Date.now();
  const decoder = new TextDecoder();
  let updateTimer: ReturnType<typeof setTimeout> | undefined;
  const sendUpdate = (): void => {
    updateTimer = undefined;
    ctx.onUpdate({ type: 'command', command: input.command, exitCode: null, durationMs: Date.now() - started, output: out.lastChars(LIVE_TAIL_CHARS) });
  };
  const onStdout = (chunk: Buffer): void => {
    out.push(decoder.decode(chunk, { stream: true }));
    updateTimer ??= setTimeout(sendUpdate, UPDATE_EVERY_MS);
  };
  // The script's first line sends its stderr to stdout; what still arrives on stderr is the sandbox launcher's own
  // (bubblewrap or the seccomp loader failing before the command ran), which would otherwise read as "(no output)".
  let launcherFailed = false;
  const onStderr = (chunk: Buffer): void => {
    launcherFailed = true;
    out.push(chunk.toString('utf8'));
  };
  let ended;
  try {
    // `exec 2>&1` first: one pipe for both streams keeps stdout and stderr in the order they were written.
    ended = await runBash(`exec 2>&1\n${input.command}`, ctx, { timeoutMs, killGraceMs: KILL_GRACE_MS, onStdout, onStderr });
  } finally {
    if (updateTimer !== undefined) clearTimeout(updateTimer);
  }
  out.push(decoder.decode());
  const output = out.length > 0 ? out.text().replace(/\n+$/, '') : '(no output)';
  return bashResult({ command: input.command, output, tail: out.lastChars(LIVE_TAIL_CHARS), durationMs: Date.now() - started, timeoutMs, end: { ...ended, launcherFailed } }, ctx);
}
