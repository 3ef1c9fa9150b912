/**
 * Bash through an editor's terminal (ACP `terminal/*`): the editor shows the command live, and the
 * boundary holds. The permission check and the sandbox level are the built-in's, unchanged; the
 * command is prepared for the OS sandbox exactly as the built-in prepares it, and what the editor
 * is asked to start is moat's own launcher with that prepared command, never the bare command.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClientTerminal, ClientTerminals, TerminalExit } from '../acp/index.ts';
import { loadBashSpawn, ToolError, type AnyTool, type ToolContext, type ToolResult } from '../tools/index.ts';
import { errorMessage } from '../util/index.ts';
import type { LaunchSpec } from './acp-terminal-launch.ts';

/** The built-in's bounds: the longest a command may run, and how much of its output the model gets. */
const MAX_TIMEOUT_MS = 600_000;
const OUTPUT_BYTE_LIMIT = 30_000;

type Input = Record<string, unknown>;

/**
 * The prepared command, for the launcher to start with exactly its environment: an editor starts
 * a terminal in its own environment plus what it is given, and that may hold the API keys the
 * sandbox removes. A private file (mode 0600, created exclusively) keeps the variables off every
 * command line; the launcher deletes it as it reads it.
 */
function writeSpec(spec: LaunchSpec): string {
  const path = join(tmpdir(), `moat-terminal-${randomBytes(12).toString('hex')}.json`);
  writeFileSync(path, JSON.stringify(spec), { mode: 0o600, flag: 'wx' });
  return path;
}

interface Ended extends TerminalExit {
  timedOut: boolean;
  aborted: boolean;
}

/** Waits for the command; past the timeout or on the user's interrupt the editor is asked to kill it, then waited for. */
async function waitFor(terminal: ClientTerminal, timeoutMs: number, signal: AbortSignal): Promise<Ended> {
  let stopped: 'timedOut' | 'aborted' | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      stopped = 'timedOut';
      resolve();
    }, timeoutMs);
    const onAbort = (): void => {
      stopped = 'aborted';
      resolve();
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  const exited = terminal.waitForExit();
  const first = await Promise.race([exited, stop.then(() => undefined)]);
  clearTimeout(timer);
  if (first !== undefined) return { ...first, timedOut: false, aborted: false };
  await terminal.kill();
  const exit = await exited;
  return { ...exit, timedOut: stopped === 'timedOut', aborted: stopped === 'aborted' };
}

function terminalBash(builtin: AnyTool, terminals: ClientTerminals, launcher: readonly string[]): AnyTool {
  return {
    ...builtin,
    execute: async (input: Input, ctx: ToolContext): Promise<ToolResult> => {
      const command = typeof input['command'] === 'string' ? input['command'] : '';
      const timeoutMs = Math.min(typeof input['timeout'] === 'number' ? input['timeout'] : ctx.bashTimeoutMs, MAX_TIMEOUT_MS);
      const { prepareBash, bashResult } = await loadBashSpawn();
      const started = Date.now();
      // The built-in's preparation: same grants, same level, same refusal when the sandbox is required but cannot run.
      const prepared = await prepareBash(`exec 2>&1\n${command}`, ctx);
      let specPath: string | undefined;
      let ended: Ended | undefined;
      let violations: Awaited<ReturnType<typeof prepared.finish>> = [];
      let output = { output: '', truncated: false };
      try {
        specPath = writeSpec({ argv: prepared.argv, env: prepared.env });
        const [file = '', ...args] = [...launcher, specPath];
        let terminal: ClientTerminal;
        try {
          terminal = await terminals.create(ctx.toolUseId, { command: file, args, cwd: ctx.cwd, outputByteLimit: OUTPUT_BYTE_LIMIT });
        } catch (e) {
          throw new ToolError(`Cannot run the command: the editor could not open a terminal (${errorMessage(e)}).`);
        }
        try {
          // The card shows the terminal from now on (session-updates.ts).
          ctx.onUpdate({ type: 'command', command, exitCode: null, durationMs: 0, output: '' });
          ended = await waitFor(terminal, timeoutMs, ctx.signal);
          output = await terminal.output();
        } finally {
          await terminal.release().catch(() => undefined);
        }
      } finally {
        if (specPath !== undefined) rmSync(specPath, { force: true });
        // Releases what the command held (the network bridge's registration, the write monitor) and says what was refused.
        violations = await prepared.finish(ended === undefined ? undefined : { code: ended.exitCode });
      }
      const text = output.output.replace(/\n+$/, '');
      const shown = text === '' ? '(no output)' : output.truncated ? `(earlier output cut)\n${text}` : text;
      return bashResult({ command, output: shown, tail: text.slice(-4_000), durationMs: Date.now() - started, timeoutMs, end: { ...ended, sandboxed: prepared.sandboxed, violations } }, ctx);
    },
  };
}

/** The built-in tools with Bash running in the editor's terminals; `launcher` starts moat's terminal launcher (the spec file goes last). */
export function editorTerminalTools(terminals: ClientTerminals, launcher: readonly string[]): (tools: AnyTool[]) => AnyTool[] {
  return (tools) => tools.map((t) => (t.name === 'Bash' ? terminalBash(t, terminals, launcher) : t));
}

