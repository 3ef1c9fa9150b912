/** The session's side of checkpoints: the hook the agent calls before a turn's first change, off after its first failure. */
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Store } from '../store/index.ts';
import { errorMessage } from '../util/index.ts';
import { changeSummary } from './describe.ts';
import { DEFAULT_MAX_FILE_BYTES, ProjectCheckpoints, shadowDir } from './project-checkpoints.ts';
import { rewind } from './rewind.ts';
import { lineStats } from './tree-diff.ts';

export interface CheckpointSettings {
  enabled: boolean;
  keepDays: number;
  maxFileBytes: number;
}

/** What the agent calls (agent's TurnCheckpoints, which this matches in shape: checkpoints does not import the agent). */
export interface TurnHook {
  before(sessionId: string, turn: number): Promise<unknown>;
  after(sessionId: string, turn: number): Promise<void>;
  readAhead(sessionId: string, turn: number): void;
  rewindCode(sessionId: string, turn: number, o: { force: boolean; dryRun: boolean }): Promise<{ lines: string[]; filesChanged: string[]; insertions: number; deletions: number; leftOut: string[]; saved: string | undefined }>;
  points(sessionId: string): Promise<{ index: number; turn: number; text: string; summary: string }[]>;
  around<T>(sessionId: string, change: () => Promise<T>, warn: (line: string) => void): Promise<T>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** `<dataDir>/checkpoints`: where every project's shadow repository lives. */
export function checkpointsRoot(dataDir: string): string {
  return join(dataDir, 'checkpoints');
}

/** The project's checkpoints, or undefined when `[checkpoints] enabled = false`. */
export function projectCheckpoints(store: Store, projectRoot: string, dataDir: string, settings: Partial<CheckpointSettings> = {}): ProjectCheckpoints | undefined {
  if (settings.enabled === false) return undefined;
  return new ProjectCheckpoints(store, projectRoot, { root: checkpointsRoot(dataDir), maxFileBytes: settings.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES });
}

/**
 * Removes checkpoints older than `keepDays` (rows, the refs of sessions left
 * with none, then unreachable objects, the rest repacked), at most once a
 * day per data folder.
 */
export async function applyRetention(store: Store, root: string, keepDays: number, now = Date.now()): Promise<void> {
  const stamp = join(root, 'last-retention');
  if (existsSync(stamp) && now - statSync(stamp).mtimeMs < DAY_MS) return;
  mkdirSync(root, { recursive: true });
  writeFileSync(stamp, '');
  const gone = store.checkpoints.removeOlderThan(now - keepDays * DAY_MS);
  const projects = new Set<string>();
  for (const g of gone) {
    if (store.checkpoints.has(g.sessionId, g.projectRoot) || !existsSync(shadowDir(root, g.projectRoot))) continue;
    const pc = new ProjectCheckpoints(store, g.projectRoot, { root, maxFileBytes: DEFAULT_MAX_FILE_BYTES });
    await pc.git.exec(['update-ref', '-d', `refs/moat/sessions/${g.sessionId}`]);
    projects.add(g.projectRoot);
  }
  for (const p of projects) await new ProjectCheckpoints(store, p, { root, maxFileBytes: DEFAULT_MAX_FILE_BYTES }).repack();
}

/**
 * The hook a session records its turns with. The first failure (a damaged
 * or missing shadow repository, git missing) is thrown once — the run says
 * it in one line — and the session goes on without checkpoints. Retention
 * runs once, after the first checkpoint, then this project's repository is
 * repacked if loose objects piled up.
 */
export function turnHook(pc: ProjectCheckpoints, store: Store, settings: { keepDays: number; maxFileBytes: number }, root: string): TurnHook {
  let off = false;
  let retained = false;
  const guard = async <T,>(fn: () => Promise<T>): Promise<T | undefined> => {
    if (off) return undefined;
    try {
      return await fn();
    } catch (e) {
      off = true;
      throw new Error(errorMessage(e), { cause: e });
    }
  };
  return {
    before: async (sessionId, turn) => {
      const id = await guard(() => pc.before(sessionId, turn));
      if (!retained) {
        retained = true;
        // In the background, best effort: a failed clean-up costs disk space, never the session.
        void applyRetention(store, root, settings.keepDays)
          .then(() => pc.maintain())
          .catch(() => undefined);
      }
      return id;
    },
    after: async (sessionId, turn) => {
      await guard(() => pc.after(sessionId, turn));
    },
    // Best effort, in the background: a failure here is met again, and said once, by the checkpoint itself.
    readAhead: (sessionId, turn) => {
      if (!off) pc.readAhead(sessionId, turn).catch(() => undefined);
    },
    // Rewinding reads the checkpoints there are: it works even after new ones failed.
    rewindCode: async (sessionId, turn, o) => {
      const report = await rewind({ sessionId, turn, code: true, conversation: false, ...o }, pc, () => '', settings.maxFileBytes);
      const plan = report.plan;
      const stats = plan?.target !== undefined && plan.saved !== undefined ? await lineStats(pc.git, plan.saved, plan.target.beforeCommit) : [];
      const changed = new Set(plan?.changes.map((c) => c.path));
      const counted = stats.filter((l) => changed.has(l.path));
      return {
        lines: report.files,
        filesChanged: [...changed],
        insertions: counted.reduce((n, l) => n + l.added, 0),
        deletions: counted.reduce((n, l) => n + l.removed, 0),
        leftOut: report.leftOut,
        saved: report.saved,
      };
    },
    points: async (sessionId) => (await pc.points(sessionId)).map((p) => ({ index: p.index, turn: p.turn, text: p.text, summary: changeSummary(p) })),
    /*
     * A change between runs (a worktree merged, a `!cmd`): recorded before
     * and after, as part of the next user message's turn, so a rewind
     * undoes it as moat's own change. Like a turn's calls, the change runs
     * even when its checkpoint cannot be taken: the warning says so.
     */
    around: async (sessionId, change, warn) => {
      const turn = pc.nextTurn(sessionId);
      let recorded = false;
      if (!off) {
        try {
          await pc.before(sessionId, turn);
          recorded = true;
        } catch (e) {
          off = true;
          warn(`checkpoints are off for this session: ${errorMessage(e)}`);
        }
      }
      try {
        return await change();
      } finally {
        if (recorded) await pc.after(sessionId, turn).catch((e: unknown) => warn(`could not record the files after this change: ${errorMessage(e)}`));
      }
    },
  };
}
