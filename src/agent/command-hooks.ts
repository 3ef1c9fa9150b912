/**
 * Command hooks (settings.json `hooks`, config.toml `[[hooks.<Event>]]`) as
 * hook callbacks, with Claude Code's contract: the event JSON on stdin; exit 0
 * answers with JSON on stdout (or plain text, which becomes context for
 * UserPromptSubmit and SessionStart); exit 2 blocks, with stderr as the
 * reason; any other exit, a timeout or a crash is a failure that is shown and
 * otherwise ignored. The raw stdout rides along (HOOK_STDOUT) for verbose
 * output, which an answer's `suppressOutput: true` turns off.
 */
import type { SandboxPolicy } from '../contracts/index.ts';
import type { HooksConfig } from '../config/index.ts';
import { loadHookProcess } from '../tools/index.ts';
import { HOOK_REFUSED, HOOK_STDOUT, type HookCallback, type HookCallbackSet, type HookInput, type HookJsonOutput } from './hooks.ts';

export interface CommandHookContext {
  cwd: string;
  projectRoot: string;
  roots: readonly string[];
  processSandbox: SandboxPolicy | undefined;
}

const CONTEXT_FROM_STDOUT = new Set(['UserPromptSubmit', 'SessionStart']);

function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** Claude Code's exit-code contract, as the JSON a callback would have answered. */
export function hookOutput(event: string, r: { exitCode: number | null; stdout: string; stderr: string; timedOut: boolean }, command: string, timeoutMs: number): HookJsonOutput {
  if (r.timedOut) throw new Error(`${command}: timed out after ${Math.round(timeoutMs / 1000)} s`);
  if (r.exitCode === 2) {
    const reason = r.stderr.trim() || `blocked by the hook ${command}`;
    return {
      decision: 'block',
      reason,
      ...(event === 'PreToolUse' ? { hookSpecificOutput: { hookEventName: event, permissionDecision: 'deny', permissionDecisionReason: reason } } : {}),
    };
  }
  if (r.exitCode !== 0) throw new Error(`${command}: exit ${r.exitCode ?? 'by signal'}${r.stderr.trim() ? `: ${firstLine(r.stderr)}` : ''}`);
  const text = r.stdout.trim();
  if (text.startsWith('{')) {
    try {
      const json: unknown = JSON.parse(text);
      if (typeof json === 'object' && json !== null && !Array.isArray(json)) return json as HookJsonOutput;
    } catch {
      // Not JSON after all: plain output.
    }
  }
  return CONTEXT_FROM_STDOUT.has(event) && text !== '' ? { hookSpecificOutput: { hookEventName: event, additionalContext: text } } : {};
}

function commandCallback(command: string, timeoutMs: number, ctx: CommandHookContext): HookCallback {
  return async (input: HookInput, signal: AbortSignal) => {
    const { runHookProcess } = await loadHookProcess();
    const r = await runHookProcess(command, JSON.stringify(input), {
      cwd: ctx.cwd,
      roots: ctx.roots,
      processSandbox: ctx.processSandbox,
      env: { CLAUDE_PROJECT_DIR: ctx.projectRoot },
      timeoutMs,
      signal,
    });
    let answer: HookJsonOutput;
    try {
      answer = hookOutput(input.hook_event_name, r, command, timeoutMs);
    } catch (e) {
      // A hook that failed because the sandbox refused it says what was refused in its failure line.
      throw r.refused.length === 0 ? e : new Error(`${(e as Error).message} (the sandbox refused: ${r.refused.join('; ')})`);
    }
    // Shown in verbose output, as Claude Code's transcript shows it, unless the answer says suppressOutput.
    const text = r.stdout.trim();
    const shown = text === '' ? answer : { ...answer, [HOOK_STDOUT]: { command, text } };
    return r.refused.length === 0 ? shown : { ...shown, [HOOK_REFUSED]: { command, refused: r.refused } };
  };
}

/** The configured command hooks as callbacks, event by event, matchers kept. */
export function commandHookCallbacks(config: HooksConfig, ctx: CommandHookContext): HookCallbackSet | undefined {
  const set: HookCallbackSet = {};
  let any = false;
  for (const [event, groups] of Object.entries(config)) {
    set[event] = (groups ?? []).map((g) => {
      any ||= g.hooks.length > 0;
      return { ...(g.matcher === undefined ? {} : { matcher: g.matcher }), callbacks: g.hooks.map((h) => commandCallback(h.command, h.timeoutMs, ctx)) };
    });
  }
  return any ? set : undefined;
}
