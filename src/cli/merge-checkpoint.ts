/** `moat worktrees merge` from the shell: the session the worktree's agent worked for gets a checkpoint before and after the merge. */
import type { WorktreeRecord } from '../agent/index.ts';
import { checkpointsRoot, projectCheckpoints, turnHook } from '../checkpoints/index.ts';
import { loadConfig, moatPaths } from '../config/index.ts';
import { openStore, type Store } from '../store/index.ts';

type SessionRow = NonNullable<ReturnType<Store['sessions']['get']>>;

/**
 * The session a merge belongs to: the one that started the worktree's
 * agent (the parent of the agent's own session), else the newest session
 * in this folder; only one of this project.
 */
function owningSession(store: Store, record: Pick<WorktreeRecord, 'sessionId'>, cwd: string, projectRoot: string): SessionRow | undefined {
  const child = record.sessionId === undefined ? undefined : store.sessions.get(record.sessionId);
  const parent = child?.parentId ? store.sessions.get(child.parentId) : undefined;
  const row = parent ?? store.sessions.latestForCwd(cwd);
  return row?.projectRoot === projectRoot ? row : undefined;
}

/**
 * Runs `merge` between two checkpoints of the owning session, so that
 * `moat rewind` (or Esc Esc) puts the files back as they were before it.
 * No session, or checkpoints off: the merge runs as it is (`note` says so).
 */
export async function withMergeCheckpoint<T>(record: Pick<WorktreeRecord, 'sessionId'>, cwd: string, merge: () => Promise<T>, note: (line: string) => void): Promise<T> {
  const env = process.env;
  const loaded = loadConfig({ cwd, env });
  const { dataDir, dbFile } = moatPaths(env);
  const store = openStore(dbFile);
  try {
    const pc = projectCheckpoints(store, loaded.projectRoot, dataDir, loaded.checkpoints);
    const session = pc === undefined ? undefined : owningSession(store, record, cwd, loaded.projectRoot);
    if (pc === undefined || session === undefined) {
      note(pc === undefined ? 'checkpoints are off: no checkpoint before this merge' : 'no moat session in this folder: no checkpoint before this merge');
      return await merge();
    }
    const hook = turnHook(pc, store, loaded.checkpoints, checkpointsRoot(dataDir));
    const result = await hook.around(session.id, merge, note);
    note(`checkpoint taken before the merge: moat rewind --session ${session.id.slice(0, 8)} undoes it`);
    return result;
  } finally {
    store.close();
  }
}
