/** `moat -p --worktree`: a session that works in a fresh worktree and leaves a branch. */
import { join, relative } from 'node:path';
import { createWorktree, finishWorktree, newAgentId, type AgentSettings, type WorktreeRecord } from '../agent/index.ts';
import { wireWorktree, type WorktreeInfo } from '../print/index.ts';
import { isWithin } from '../util/index.ts';

/**
 * `moat -p --worktree "task"`: the whole session works in a fresh worktree on
 * its own branch, so several moat jobs can run on one repository at once and
 * the user's files stay as they are until they merge.
 */
export interface WorktreeRun {
  record: WorktreeRecord;
  /** Set once finished: where the work went. */
  info?: WorktreeInfo;
}

/** Creates the worktree and points the settings (cwd, project root) into it. */
export async function startWorktreeRun(cwd: string, prompt: string, settings: AgentSettings): Promise<WorktreeRun> {
  const id = newAgentId();
  const description = prompt.split('\n')[0]!.slice(0, 72);
  const wt = await createWorktree(cwd, { id, description, base: 'head', purpose: '--worktree' });
  settings.projectRoot = isWithin(wt.sourceTop, settings.projectRoot) ? join(wt.record.path, relative(wt.sourceTop, settings.projectRoot)) : wt.record.path;
  settings.cwd = wt.cwd;
  return { record: wt.record };
}

/** Commits the session's work on its branch (or removes the worktree when nothing changed). */
export async function finishWorktreeRun(run: WorktreeRun, stopped: boolean): Promise<WorktreeInfo> {
  const message = `${run.record.description}\n\nWork of a moat -p --worktree session${stopped ? ', which stopped before it finished' : ''}.`;
  const changes = await finishWorktree(run.record, message);
  run.info = wireWorktree(run.record, changes);
  return run.info;
}

/** The closing stderr line of text mode: where the work is and how to merge it. */
export function worktreeLine(w: WorktreeInfo): string {
  if (w.changed_files.length === 0) return `moat: no files changed; worktree ${w.id} and branch ${w.branch} were removed\n`;
  const n = w.changed_files.length;
  return `moat: ${n} file${n === 1 ? '' : 's'} changed on branch ${w.branch} (worktree ${w.path}); merge with: moat worktrees merge ${w.id}\n`;
}
