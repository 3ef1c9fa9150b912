/**
 * `!cmd`, what the `shell` operation does: the user's own command, checked as
 * the model's Bash call is (a question and its answer are the same permission
 * events) and run like Bash.
 */
import type { SandboxGrant } from '../contracts/index.ts';
import type { AgentSession, AgentSettings } from '../agent/index.ts';
import type { OwnerControls, ShellResult } from '../protocol/index.ts';
import { loadHookProcess } from '../tools/index.ts';
import type { RecordChange } from './checkpoint-setup.ts';

const SHELL_OUTPUT_CAP = 30_000;

/** `recordChange`: a `!cmd` may write (workspace-write grants), so it is checkpointed before and after with the next message and a rewind undoes it. */
export function userShell(recordChange: RecordChange): NonNullable<OwnerControls<AgentSession>['shell']> {
  return async (agent, command, signal, emit) => {
    // The same permission check and events as the model's Bash call; what it refuses is not run.
    const started = performance.now();
    const gate = await agent.checkCommand(command, emit, signal, { sandbox: 'workspace-write' });
    if (!gate.ok) return { command, output: `${gate.message}\n`, exitCode: null, durationMs: Math.round(performance.now() - started) };
    return recordChange(agent, () => runShell(command, agent.currentSettings(), signal, gate.sandbox ?? 'workspace-write'));
  };
}

/**
 * The user's own command, run like Bash — inside the OS sandbox with the
 * grants its permission check gave (workspace-write without a sandbox
 * level), the bash timeout, and the whole process group ended with the
 * shell (so `!cmd &` cannot hold the prompt).
 */
async function runShell(command: string, settings: AgentSettings, signal: AbortSignal, level: SandboxGrant): Promise<ShellResult> {
  const started = performance.now();
  const { runHookProcess } = await loadHookProcess();
  const r = await runHookProcess(`${command} 2>&1`, '', {
    cwd: settings.cwd,
    roots: [settings.cwd, ...settings.addDirs],
    processSandbox: settings.processSandbox,
    env: {},
    timeoutMs: settings.bashTimeoutMs,
    signal,
    level,
  });
  let output = r.stdout + (r.timedOut ? `\n(stopped after ${Math.round(settings.bashTimeoutMs / 1000)} s)\n` : '');
  if (output.length > SHELL_OUTPUT_CAP) output = `… (${output.length - SHELL_OUTPUT_CAP} characters cut)\n${output.slice(-SHELL_OUTPUT_CAP)}`;
  return { command, output, exitCode: signal.aborted ? null : r.exitCode, durationMs: Math.round(performance.now() - started) };
}
