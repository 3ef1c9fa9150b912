/** A session's hooks: one event's hooks run with the fields every hook input has, and what the user sees of their answers. */
import type { Store } from '../store/index.ts';
import { errorMessage } from '../util/index.ts';
import type { AgentEvent } from './events.ts';
import { runHooks, runPreToolUse, type HookCallbackSet, type HookInput, type HookOutcome } from './hooks.ts';
import type { Run } from './run.ts';
import type { AgentSettings } from './settings.ts';
import type { DispatchDeps, FinishedToolCall } from './tool-dispatch.ts';
import { TranscriptFile } from './transcript-file.ts';

/** What the runner reads of its session, at the moment a hook runs (the mode and the hook set change while it lives). */
export interface HookRunnerSession {
  id: string;
  settings: Readonly<AgentSettings>;
  gitBranch: string | undefined;
  /** A sub-agent's transcript is a sidechain, as in Claude Code. */
  sidechain: boolean;
  /** The session's store. */
  store(): Store;
  hooks(): HookCallbackSet | undefined;
}

/** What a command hook may do: it runs in the session's workspace-write sandbox. */
const HOOK_GRANTS = 'hooks run in the session sandbox: they may write the working folder, --add-dir folders and [sandbox.filesystem] allow_write, and reach the hosts in [sandbox.network] allow (~/.config/moat/config.toml)';

export class SessionHookRunner {
  /** Written on the first hook that runs, brought up to date before each later one. */
  private transcript: TranscriptFile | undefined;
  /** Sandbox refusals of hooks already told in this session (each is said once). */
  private readonly refusalsTold = new Set<string>();

  constructor(private readonly session: HookRunnerSession) {}

  /**
   * Runs one event's hooks; failures and system messages become notices (a
   * broken hook is shown, never fatal), a `continue: false` reaches the run.
   */
  async run(run: Run, event: string, fields: Record<string, unknown>, signal: AbortSignal, matchOn?: string): Promise<HookOutcome> {
    const set = this.session.hooks();
    if (set?.[event] === undefined || set[event].length === 0) return { context: [], systemMessages: [], output: [], failures: [], refused: [] };
    const outcome = await runHooks(set, this.input(event, fields, run.emit), signal, matchOn);
    this.report(run, event, outcome);
    return outcome;
  }

  /** The tool hooks in force, as tool dispatch calls them for one run's calls (none where no hook is set). */
  toolHooks(run: Run): Pick<DispatchDeps, 'preToolUse' | 'postToolUse' | 'notify'> {
    const hooks = this.session.hooks();
    return {
      ...(hooks?.PreToolUse?.length
        ? {
            preToolUse: async (c: { toolName: string; toolUseId: string; input: unknown }, signal: AbortSignal) => {
              const input = { ...this.input('PreToolUse', { tool_name: c.toolName, tool_input: c.input, tool_use_id: c.toolUseId }, run.emit), tool_name: c.toolName };
              const outcome = await runPreToolUse(hooks, input, signal);
              this.report(run, 'PreToolUse', outcome);
              return outcome;
            },
          }
        : {}),
      ...(hooks?.PostToolUse?.length || hooks?.PostToolUseFailure?.length
        ? {
            // Claude Code's shapes: a success carries the structured `tool_response`, a failure its `error` text.
            postToolUse: (c: FinishedToolCall, signal: AbortSignal) =>
              c.error === undefined
                ? this.run(run, 'PostToolUse', { tool_name: c.toolName, tool_input: c.input, tool_response: c.response, tool_use_id: c.toolUseId, duration_ms: c.durationMs }, signal, c.toolName)
                : this.run(
                    run,
                    'PostToolUseFailure',
                    { tool_name: c.toolName, tool_input: c.input, tool_use_id: c.toolUseId, error: c.error, is_interrupt: false, duration_ms: c.durationMs },
                    signal,
                    c.toolName,
                  ),
          }
        : {}),
      ...(hooks?.Notification?.length
        ? { notify: (message: string) => void this.run(run, 'Notification', { message, notification_type: 'permission_prompt' }, new AbortController().signal, 'permission_prompt') }
        : {}),
    };
  }

  /** What the user sees of a hook's answer (failures, system messages, its stdout), and a `continue: false` for the loop. */
  report(run: Run, event: string, outcome: HookOutcome): void {
    if (outcome.stop !== undefined) run.hookStop = outcome.stop;
    for (const f of outcome.failures) run.emit({ type: 'notice', level: 'warning', message: `a ${event} hook failed (ignored): ${f}` });
    for (const m of outcome.systemMessages) run.emit({ type: 'notice', level: 'info', message: m });
    for (const o of outcome.output) run.emit({ type: 'hook_output', event, command: o.command, output: o.text });
    // Once a session per refusal: what was refused, and the settings hooks run under (the session's sandbox).
    for (const r of outcome.refused) {
      for (const message of r.refused) {
        if (this.refusalsTold.has(message)) continue;
        this.refusalsTold.add(message);
        run.emit({ type: 'notice', level: 'warning', message: `the sandbox refused a ${event} hook (${r.command}): ${message}; ${HOOK_GRANTS}`, sandboxRefusal: true });
      }
    }
  }

  /**
   * The fields every hook input has. The transcript file is brought up to
   * date first, so a hook reading `transcript_path` sees every finished
   * message; a file that cannot be written is a warning and an empty path.
   */
  input(event: string, fields: Record<string, unknown>, emit: (e: AgentEvent) => void): HookInput {
    const { id, settings } = this.session;
    let transcriptPath = '';
    const dir = settings.transcriptDir;
    if (dir !== undefined) {
      try {
        this.transcript ??= new TranscriptFile(dir, id, { cwd: settings.cwd, gitBranch: this.session.gitBranch, sidechain: this.session.sidechain });
        transcriptPath = this.transcript.sync(this.session.store());
      } catch (e) {
        emit({ type: 'notice', level: 'warning', message: `could not write the transcript for hooks: ${errorMessage(e)}` });
      }
    }
    return { hook_event_name: event, session_id: id, transcript_path: transcriptPath, cwd: settings.cwd, permission_mode: settings.permissionMode, ...fields };
  }
}
