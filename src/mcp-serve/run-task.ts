/** One `moat` or `moat_reply` call: a session's turn driven to its end, with progress as it goes and the result the caller gets. */
import type { PermissionMode } from '../contracts/index.ts';
import type { SessionEvent, SessionHost } from '../protocol/index.ts';
import type { TaskOutput } from './task-input.ts';

/** A session opened for one call; nobody answers its questions, so the mode and the rules decide them. */
export interface TaskSession {
  id: string;
  host: SessionHost;
  /** With a worktree: commits the work on its branch and says where it went. */
  finishWorktree?(stopped: boolean): Promise<{ id: string; branch: string; path: string; changed_files: { path: string }[] }>;
  close(): Promise<void>;
}

export interface OpenTask {
  cwd: string;
  model?: string;
  permissionMode?: PermissionMode;
  allowedTools?: string[];
  disallowedTools?: string[];
  maxTurns?: number;
  /** moat_reply: the session to go on with. */
  resume?: string;
  /** A fresh worktree, named after the task. */
  worktree?: { task: string };
}

/** One line of progress for the caller: what moat is doing now. */
export type Progress = (message: string) => void;

function describeCall(name: string, input: unknown): string {
  const o = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const subject = [o['command'], o['file_path'], o['pattern'], o['url'], o['path']].find((v) => typeof v === 'string');
  return typeof subject === 'string' ? `${name} ${subject}` : name;
}

/**
 * Runs `prompt` as one turn of `session` and closes it (the conversation is
 * saved; `moat_reply` opens it again). Aborting `signal` interrupts the turn
 * through the session's one AbortSignal.
 */
export async function runTask(session: TaskSession, prompt: string, signal: AbortSignal, progress: Progress): Promise<TaskOutput> {
  const changed = new Set<string>();
  const denials: { toolName: string; message: string }[] = [];
  let finished: Extract<SessionEvent, { type: 'run_finished' }> | undefined;
  // Said once per turn, when its text starts: the caller knows the model is answering, not stuck.
  let answering = false;
  try {
    for await (const e of session.host.turn(prompt, signal)) {
      switch (e.type) {
        case 'turn_started':
          answering = false;
          break;
        case 'text_delta':
          if (!answering) progress('writing');
          answering = true;
          break;
        case 'tool_call_ready':
          progress(describeCall(e.name, e.input));
          break;
        case 'tool_finished':
          if (!e.isError && e.display?.type === 'diff') changed.add(e.display.path);
          break;
        case 'permission_denied':
          denials.push({ toolName: e.toolName, message: e.message });
          break;
        case 'run_finished':
          finished = e;
          break;
        default:
          break;
      }
    }
    const stopReason = finished?.stopReason ?? 'aborted';
    const worktree = session.finishWorktree === undefined ? undefined : await session.finishWorktree(stopReason !== 'end_turn');
    return {
      sessionId: session.id,
      result: finished?.result ?? '',
      stopReason,
      isError: stopReason !== 'end_turn',
      ...(finished?.error === undefined ? {} : { error: finished.error }),
      costUsd: finished?.costUsd ?? 0,
      turns: finished?.turns ?? 0,
      durationMs: finished?.durationMs ?? 0,
      filesChanged: [...changed],
      permissionDenials: denials,
      ...(worktree === undefined ? {} : { worktree: { id: worktree.id, branch: worktree.branch, path: worktree.path, changedFiles: worktree.changed_files.map((f) => f.path) } }),
    };
  } finally {
    await session.close();
  }
}

/** The text the caller's model reads: the answer, and when it did not finish, why. */
export function resultText(out: TaskOutput): string {
  if (out.stopReason === 'end_turn') return out.result;
  const why = out.stopReason === 'aborted' ? 'it was cancelled' : out.stopReason === 'error' ? `it failed${out.error ? `: ${out.error}` : ''}` : `it stopped (${out.stopReason})`;
  return `${out.result}${out.result ? '\n\n' : ''}[moat did not finish: ${why}. Session ${out.sessionId}.]`;
}
