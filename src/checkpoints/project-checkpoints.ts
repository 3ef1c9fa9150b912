/** A project's checkpoints for its sessions: taking them before and after turns, the rewind list, and restoring code. */
import { basename, join } from 'node:path';
import type { CheckpointRow, LeftOutFile, Store } from '../store/index.ts';
import { MoatError } from '../util/index.ts';
import { ChangeWatch } from './change-watch.ts';
import { applyRestore, recoverRestore, restoreInterrupted } from './apply-restore.ts';
import { ShadowGit } from './shadow-git.ts';
import { commitTree, snapshot, type Snapshot } from './snapshot.ts';
import { lineStats, treeDiff, type LineStat, type TreeChange } from './tree-diff.ts';

export interface CheckpointOptions {
  /** `<dataDir>/checkpoints`: one shadow repository per project under it. */
  root: string;
  /** Files larger than this are left out of checkpoints (default 10 MB). */
  maxFileBytes: number;
}

export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** The shadow repository's folder for a project: its name readable, its hash unique. */
export function shadowDir(root: string, projectRoot: string): string {
  // Bun's hasher, not node:crypto: that module loads Node's streams, ~10 ms of CPU before -p's first request (scripts/bench/startup.ts).
  const hash = new Bun.CryptoHasher('sha256').update(projectRoot).digest('hex').slice(0, 16);
  const name = basename(projectRoot).replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 40) || 'root';
  return join(root, `${name}-${hash}`);
}

/** One entry of the rewind list: a user message and what the turns it started changed. */
export interface RewindPoint {
  /** 1-based position among the session's user messages (what `--to N` names). */
  index: number;
  seq: number;
  turn: number;
  text: string;
  /** Files changed by the message's run, with lines added and removed; empty when it changed none. */
  changes: LineStat[];
  /** Whether the code can be put back to just before this message (a checkpoint at or after it exists). */
  codeRestorable: boolean;
}

/** What a code rewind would do. */
export interface CodePlan {
  sessionId: string;
  /** The checkpoint restored; undefined when nothing changed files after the message. */
  target: CheckpointRow | undefined;
  changes: TreeChange[];
  /** Paths in `changes` that someone changed outside moat since the checkpoint. */
  conflicts: string[];
  /** Files neither checkpoint holds (size limit, nested repositories): left as they are. */
  leftOut: LeftOutFile[];
  /** The commit that keeps the tree as it was before this rewind. */
  saved: string | undefined;
}

/** Past this many loose objects (or packs) a session's start repacks the shadow repository in the background. */
const LOOSE_OBJECTS_LIMIT = 2000;
const PACKS_LIMIT = 20;

/**
 * How long a recorded tree that is not the session's own last one may stand for its next checkpoint (a new
 * session's first, in a process that recorded another's): the ref holding it may be removed (sessions rm), and
 * prune takes objects no ref reaches once they are an hour old.
 */
const READ_AHEAD_MS = 30 * 60 * 1000;

const beforeMessage = (sessionId: string, turn: number) => `before turn ${turn} of session ${sessionId}`;

const ref = (sessionId: string) => `refs/moat/sessions/${sessionId}`;

/**
 * The checkpoints of one project. Every call that touches the shadow
 * repository runs under its lock. Errors are thrown as MoatErrors; the
 * session-side hook turns the first one into a single warning.
 */
export class ProjectCheckpoints {
  readonly git: ShadowGit;
  private readonly watch: ChangeWatch;
  private ready: Promise<void> | undefined;
  /** A checkpoint taken ahead (readAhead), not yet a row: what `before` uses while nothing changed since. */
  private ahead: { sessionId: string; turn: number; parent: string | undefined; snapshot: Snapshot } | undefined;

  constructor(
    private readonly store: Store,
    readonly projectRoot: string,
    private readonly opts: CheckpointOptions,
  ) {
    this.git = new ShadowGit(shadowDir(opts.root, projectRoot), projectRoot);
    this.watch = new ChangeWatch(projectRoot, this.git.gitDir);
  }

  /** Creates or checks the shadow repository, and finishes a rewind a kill interrupted. */
  open(): Promise<void> {
    this.ready ??= (async () => {
      await this.git.ensure();
      await this.git.locked(async () => {
        recoverRestore(this.git);
      });
    })();
    return this.ready;
  }

  /** Whether a rewind was cut short here (a kill): `open` finishes or undoes it. */
  interrupted(): boolean {
    return restoreInterrupted(this.git);
  }

  /** The session's newest recorded state: the next checkpoint's parent. */
  private head(sessionId: string): { commit: string; tree: string } | undefined {
    const rows = this.store.checkpoints.list(sessionId);
    const last = rows.at(-1);
    if (!last) return undefined;
    return last.afterCommit !== null && last.afterTree !== null ? { commit: last.afterCommit, tree: last.afterTree } : { commit: last.beforeCommit, tree: last.beforeTree };
  }

  /**
   * Takes a turn's checkpoint ahead of its first change, while the model
   * streams that change's arguments: the first checkpoint of a process has
   * git read the whole tree (~86 ms on 10,000 files here, against the 50 ms
   * a checkpoint may cost; scripts/bench/checkpoint.ts), and a new commit
   * and its ref are two more git processes (~10 ms each in a fresh moat;
   * scripts/bench/checkpoint-first-change.ts). `before` then uses it as long
   * as the watch saw nothing change since and the session's last checkpoint
   * is still its parent; otherwise it takes its own.
   */
  async readAhead(sessionId: string, turn: number): Promise<void> {
    // Without a watch to say nothing changed since, `before` would read the tree again anyway.
    if (!this.watch.usable) return;
    await this.open();
    await this.git.locked(async () => {
      if (this.store.checkpoints.list(sessionId).some((c) => c.turn === turn)) return;
      const parent = this.head(sessionId);
      this.ahead = { sessionId, turn, parent: parent?.commit, snapshot: await this.take(sessionId, parent, beforeMessage(sessionId, turn)) };
    });
  }

  /**
   * Records the tree now. When the watch saw nothing change since a tree
   * was last recorded, that tree is the answer without reading again (one
   * not the parent's only while prune cannot have taken its objects);
   * otherwise the watch is armed first (so a change made while git reads
   * is seen next time) and git reads what changed.
   */
  private async take(sessionId: string, parent: { commit: string; tree: string } | undefined, message: string): Promise<Snapshot> {
    const known = this.watch.recorded;
    if (known !== undefined && (known.tree === parent?.tree || Date.now() - known.at < READ_AHEAD_MS) && (await this.watch.unchanged())) {
      const s = await commitTree(this.git, known, { parent, message });
      if (s.wrote || parent === undefined) await this.git.run(['update-ref', ref(sessionId), s.commit]);
      this.watch.recorded = { tree: s.tree, leftOut: s.leftOut, at: Date.now() };
      return s;
    }
    const watching = this.watch.usable && (await this.watch.arm(() => this.ignoredPaths()));
    const s = await snapshot(this.git, { parent, maxFileBytes: this.opts.maxFileBytes, message });
    if (watching) this.watch.recorded = { tree: s.tree, leftOut: s.leftOut, at: Date.now() };
    if (s.wrote || parent === undefined) await this.git.run(['update-ref', ref(sessionId), s.commit]);
    return s;
  }

  /** The checkpoint before a turn's first change; a second call for the same turn changes nothing. Returns its commit. */
  async before(sessionId: string, turn: number): Promise<string> {
    await this.open();
    const existing = this.store.checkpoints.list(sessionId).find((c) => c.turn === turn);
    if (existing) return existing.beforeCommit;
    return this.git.locked(async () => {
      const parent = this.head(sessionId);
      const ahead = this.ahead;
      this.ahead = undefined;
      const usable = ahead?.sessionId === sessionId && ahead.turn === turn && ahead.parent === parent?.commit && this.watch.recorded?.tree === ahead.snapshot.tree;
      const s = usable && (await this.watch.unchanged()) ? ahead.snapshot : await this.take(sessionId, parent, beforeMessage(sessionId, turn));
      this.store.checkpoints.recordBefore({ sessionId, turn, projectRoot: this.projectRoot, commit: s.commit, tree: s.tree, leftOut: s.leftOut });
      return s.commit;
    });
  }

  /** The tree when a turn's run ended (only for a turn with a checkpoint before it). */
  async after(sessionId: string, turn: number): Promise<void> {
    const row = this.store.checkpoints.list(sessionId).find((c) => c.turn === turn);
    if (!row) return;
    await this.open();
    await this.git.locked(async () => {
      const s = await this.take(sessionId, { commit: row.beforeCommit, tree: row.beforeTree }, `after turn ${turn} of session ${sessionId}`);
      this.store.checkpoints.recordAfter(sessionId, turn, s.commit, s.tree);
    });
  }

  /**
   * The turn a change made between runs belongs to: the next user
   * message's (a `!cmd`'s output goes with that message, and rewinding to
   * just before it undoes the change). Two such changes before the next
   * message share its checkpoint: the first one's is the state before.
   */
  nextTurn(sessionId: string): number {
    const lastMessage = this.store.messages.list(sessionId).at(-1)?.turn ?? 0;
    return lastMessage + 1;
  }

  /** The session's user messages, each with what its run changed. */
  async points(sessionId: string): Promise<RewindPoint[]> {
    const prompts = this.store.checkpoints.userPrompts(sessionId);
    const rows = this.store.checkpoints.list(sessionId);
    if (rows.length > 0) await this.open();
    const out: RewindPoint[] = [];
    for (const [i, p] of prompts.entries()) {
      const next = prompts[i + 1];
      const own = rows.find((c) => c.turn >= p.turn && (next === undefined || c.turn < next.turn));
      let changes: LineStat[] = [];
      if (own) {
        const end = own.afterCommit ?? rows.find((c) => c.turn > own.turn)?.beforeCommit;
        if (end !== undefined) changes = await lineStats(this.git, own.beforeCommit, end);
      }
      out.push({ index: i + 1, seq: p.seq, turn: p.turn, text: p.text, changes, codeRestorable: rows.some((c) => c.turn >= p.turn) });
    }
    return out;
  }

  /**
   * What putting the code back to just before the message of `turn` would
   * change. The tree now is recorded first (so the rewind can be undone),
   * and every change between the end of one of the session's turns and the
   * start of the next (or now) counts as made outside moat.
   */
  async plan(sessionId: string, turn: number): Promise<CodePlan> {
    const rows = this.store.checkpoints.list(sessionId).filter((c) => c.turn >= turn);
    const target = rows[0];
    if (!target) return { sessionId, target: undefined, changes: [], conflicts: [], leftOut: [], saved: undefined };
    await this.open();
    return this.git.locked(async () => {
      const now = await this.take(sessionId, this.head(sessionId), `before a rewind of session ${sessionId}`);
      await this.requireCommit(target.beforeCommit);
      // A file either checkpoint left out is not touched: the other's copy of it is all there is.
      const unrecorded = new Set([...target.leftOut, ...now.leftOut].map((l) => l.path));
      const changes = (await treeDiff(this.git, now.commit, target.beforeCommit)).filter((c) => !unrecorded.has(c.path));
      const outside = new Set<string>();
      for (const [i, c] of rows.entries()) {
        if (c.afterCommit === null) continue;
        const nextStart = rows[i + 1]?.beforeCommit ?? now.commit;
        for (const d of await treeDiff(this.git, c.afterCommit, nextStart)) outside.add(d.path);
      }
      const conflicts = changes.filter((c) => outside.has(c.path)).map((c) => c.path);
      const leftOut = [...target.leftOut, ...now.leftOut.filter((l) => !target.leftOut.some((t) => t.path === l.path))];
      return { sessionId, target, changes, conflicts, leftOut, saved: now.commit };
    });
  }

  /** Carries out a plan. Refuses to overwrite files changed outside moat unless `force`. */
  async restore(plan: CodePlan, o: { force: boolean }): Promise<void> {
    if (plan.conflicts.length > 0 && !o.force) {
      const shown = plan.conflicts.slice(0, 5).join(', ') + (plan.conflicts.length > 5 ? `, and ${plan.conflicts.length - 5} more` : '');
      throw new MoatError('usage', `not rewinding: ${plan.conflicts.length === 1 ? 'a file was' : `${plan.conflicts.length} files were`} changed outside moat since the checkpoint (${shown}); ask again with --force to overwrite ${plan.conflicts.length === 1 ? 'it' : 'them'}`);
    }
    if (plan.changes.length === 0 || plan.target === undefined) return;
    await this.open();
    await this.git.locked(() => applyRestore(this.git, plan.changes));
    // The session's files are the checkpoint's now: the rewind is no change made outside moat.
    const last = this.store.checkpoints.list(plan.sessionId).at(-1);
    if (last) this.store.checkpoints.recordAfter(plan.sessionId, last.turn, plan.target.beforeCommit, plan.target.beforeTree);
  }

  /** Folders `.gitignore` excludes: a rewind leaves them as they are, and says so. */
  async ignoredFolders(): Promise<string[]> {
    await this.open();
    return (await this.ignoredPaths()).filter((p) => p.endsWith('/'));
  }

  /** Files and folders (ending in `/`) `.gitignore` excludes, a folder named once. */
  private async ignoredPaths(): Promise<string[]> {
    const out = await this.git.run(['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory']);
    return out.split('\0').filter((p) => p !== '');
  }

  /** Forgets a session's checkpoints here: its ref goes, and objects nothing else holds are pruned. */
  async forget(sessionId: string): Promise<void> {
    await this.open();
    await this.git.locked(async () => {
      await this.git.exec(['update-ref', '-d', ref(sessionId)]);
    });
    await this.prune();
  }

  /**
   * Removes objects no session's ref reaches. Only objects older than an
   * hour: a checkpoint being written by another session right now has
   * objects that no ref reaches yet.
   */
  async prune(): Promise<void> {
    await this.git.exec(['prune', '--expire=1.hour.ago']);
  }

  /**
   * Packs what the sessions' refs and the shadow index reach into one pack
   * (deltas between versions of a file: a checkpoint costs its changes, not
   * copies), then prunes. Not under the lock: git lets readers and writers
   * go on during a repack, and a checkpoint must not wait seconds for one.
   * Loose objects nothing reaches stay until `prune` may take them.
   */
  async repack(): Promise<void> {
    await this.git.run(['repack', '-a', '-d', '-q', '--no-write-bitmap-index']);
    await this.prune();
  }

  /** Repacks when loose objects or packs have piled up since the last time; true when it did. */
  async maintain(): Promise<boolean> {
    await this.open();
    const counts = new Map<string, number>();
    for (const line of (await this.git.run(['count-objects', '-v'])).split('\n')) {
      const [k, v] = line.split(': ');
      if (k !== undefined && v !== undefined) counts.set(k, Number(v));
    }
    if ((counts.get('count') ?? 0) < LOOSE_OBJECTS_LIMIT && (counts.get('packs') ?? 0) < PACKS_LIMIT) return false;
    await this.repack();
    return true;
  }

  private async requireCommit(commit: string): Promise<void> {
    const r = await this.git.exec(['cat-file', '-e', `${commit}^{commit}`]);
    if (r.code !== 0) throw new MoatError('not_found', `checkpoint ${commit.slice(0, 12)} is missing from ${this.git.gitDir}: the code cannot be rewound`);
  }
}
