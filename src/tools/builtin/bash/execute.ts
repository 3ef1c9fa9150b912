/** What the Bash tool does once called: the command run in its own process group inside the OS sandbox, its output capped. */
import { type ToolContext, type ToolResult } from '../../types.ts';
import { MAX_BASH_TIMEOUT_MS, type BashInput as Input } from './index.ts';
import { OutputBuffer } from './output-buffer.ts';
import { describeViolations, noNetworkNote, runBash } from './sandboxed-spawn.ts';

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
  const { violations } = ended;
  const durationMs = Date.now() - started;
  const refused = describeViolations(violations, ctx);
  const output = out.length > 0 ? out.text().replace(/\n+$/, '') : '(no output)';
  let status = '';
  if (ended.timedOut) status = `Command timed out after ${timeoutMs / 1000}s and was stopped. Raise timeout (max ${MAX_BASH_TIMEOUT_MS}) if it needs longer.`;
  else if (ended.aborted) status = 'Command aborted by the user.';
  else if (ended.exitCode === null) status = `Command killed by ${ended.signal ?? 'a signal'}.`;
  else if (ended.exitCode !== 0) status = `Exit code ${ended.exitCode}`;
  const sandboxNote = refused.length > 0 ? `\n\nRefused by the sandbox:\n${refused.map((r) => `- ${r}`).join('\n')}` : '';
  // A command that never started did not fail for want of network.
  const offline = ended.sandboxed && !launcherFailed && ended.exitCode !== null && ended.exitCode !== 0 && !violations.some((v) => v.kind === 'network') ? noNetworkNote(ctx) : undefined;
  const grant = ended.sandboxed ? (ctx.sandbox ?? 'read-only') : ctx.processSandbox === undefined ? undefined : 'off';
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
