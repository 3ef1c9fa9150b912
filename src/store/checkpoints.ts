/** Checkpoint rows (a session's turns and the shadow-repository commits before and after them) and conversation branches. */
import type { Database } from 'bun:sqlite';
import { MoatError, errorMessage, newId } from '../util/index.ts';

/** A file a checkpoint does not hold. */
export interface LeftOutFile {
  path: string;
  reason: 'too_large' | 'nested_repository';
  size?: number;
}

export interface CheckpointRow {
  sessionId: string;
  /** The turn of the user message this checkpoint comes before. */
  turn: number;
  projectRoot: string;
  beforeCommit: string;
  beforeTree: string;
  /** The tree when the turn's run ended; null while it runs, or when it never ended (a crash). */
  afterCommit: string | null;
  afterTree: string | null;
  leftOut: LeftOutFile[];
  createdAt: number;
}

/** A user message that started a run: what the rewind list offers. */
export interface UserPrompt {
  seq: number;
  turn: number;
  text: string;
  createdAt: number;
}

interface Record {
  session_id: string;
  turn: number;
  project_root: string;
  before_commit: string;
  before_tree: string;
  after_commit: string | null;
  after_tree: string | null;
  left_out: string;
  created_at: number;
}

function toRow(r: Record): CheckpointRow {
  return {
    sessionId: r.session_id,
    turn: r.turn,
    projectRoot: r.project_root,
    beforeCommit: r.before_commit,
    beforeTree: r.before_tree,
    afterCommit: r.after_commit,
    afterTree: r.after_tree,
    leftOut: JSON.parse(r.left_out) as LeftOutFile[],
    createdAt: r.created_at,
  };
}

function promptText(content: string): string {
  const parts = JSON.parse(content) as { type: string; text?: string }[];
  return parts
    .filter((p) => p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text)
    .join('\n');
}

export class CheckpointRepo {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  /** The checkpoint before a turn; a second one for the same turn keeps the first (it is the state before). */
  recordBefore(r: { sessionId: string; turn: number; projectRoot: string; commit: string; tree: string; leftOut: readonly LeftOutFile[] }): void {
    this.db
      .query(
        `INSERT OR IGNORE INTO checkpoints (session_id, turn, project_root, before_commit, before_tree, left_out, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(r.sessionId, r.turn, r.projectRoot, r.commit, r.tree, JSON.stringify(r.leftOut), this.now());
  }

  recordAfter(sessionId: string, turn: number, commit: string, tree: string): void {
    this.db.query('UPDATE checkpoints SET after_commit = ?, after_tree = ? WHERE session_id = ? AND turn = ?').run(commit, tree, sessionId, turn);
  }

  /** The session's checkpoints, oldest first. */
  list(sessionId: string): CheckpointRow[] {
    return this.db.query<Record, [string]>('SELECT * FROM checkpoints WHERE session_id = ? ORDER BY turn').all(sessionId).map(toRow);
  }

  /** The newest checkpoint of any session in this project: its commit is the next one's parent. */
  latestInProject(projectRoot: string): CheckpointRow | undefined {
    const r = this.db.query<Record, [string]>('SELECT * FROM checkpoints WHERE project_root = ? ORDER BY created_at DESC, rowid DESC LIMIT 1').get(projectRoot);
    return r ? toRow(r) : undefined;
  }

  /** The projects whose shadow repositories hold this session's checkpoints (for `sessions rm`). */
  projectsOf(sessionId: string): string[] {
    return this.db.query<{ p: string }, [string]>('SELECT DISTINCT project_root AS p FROM checkpoints WHERE session_id = ?').all(sessionId).map((r) => r.p);
  }

  /** Drops checkpoints made before `cutoff` (epoch ms); returns the sessions and projects they belonged to. */
  removeOlderThan(cutoff: number): { sessionId: string; projectRoot: string }[] {
    const gone = this.db
      .query<{ session_id: string; project_root: string }, [number]>('SELECT DISTINCT session_id, project_root FROM checkpoints WHERE created_at < ?')
      .all(cutoff)
      .map((r) => ({ sessionId: r.session_id, projectRoot: r.project_root }));
    this.db.query('DELETE FROM checkpoints WHERE created_at < ?').run(cutoff);
    return gone;
  }

  /** Whether the session still has checkpoints in this project (after a retention pass). */
  has(sessionId: string, projectRoot: string): boolean {
    return this.db.query('SELECT 1 FROM checkpoints WHERE session_id = ? AND project_root = ? LIMIT 1').get(sessionId, projectRoot) !== null;
  }

  /** The user messages that started runs: each the first message of its turn. */
  userPrompts(sessionId: string): UserPrompt[] {
    return this.db
      .query<{ seq: number; turn: number; content: string; created_at: number }, [string]>(
        `SELECT seq, turn, content, created_at FROM messages m
         WHERE session_id = ?1 AND role = 'user' AND turn > 0
           AND seq = (SELECT min(seq) FROM messages WHERE session_id = ?1 AND turn = m.turn)
         ORDER BY seq`,
      )
      .all(sessionId)
      .map((r) => ({ seq: r.seq, turn: r.turn, text: promptText(r.content), createdAt: r.created_at }));
  }

  /**
   * A conversation rewind: the session's messages from `atSeq` on leave it,
   * and the whole conversation as it was is kept as a new session (its
   * `branch_of` names this one), with the checkpoints of the turns that went.
   * One IMMEDIATE transaction: a crash leaves the session as it was or both
   * sessions as they should be. The branch keeps the old `updated_at`, so
   * `--continue` and `moat rewind` go on with the session, not the branch.
   * Returns the saved branch's id.
   */
  branchOff(sessionId: string, atSeq: number, atTurn: number): string {
    const id = newId();
    const t = this.now();
    try {
      this.db
        .transaction(() => {
          const copied = this.db
            .query(
              `INSERT INTO sessions (id, cwd, project_root, git_branch, model, title, parent_id, agent_id, created_at, updated_at,
                 permission_mode, todos, status, history_start_seq, branch_of, branch_at_seq)
               SELECT ?1, cwd, project_root, git_branch, model, coalesce(title, '') || ' (rewound branch)', NULL, agent_id, created_at, updated_at,
                 permission_mode, todos, status, history_start_seq, id, ?2
               FROM sessions WHERE id = ?3`,
            )
            .run(id, atSeq, sessionId).changes;
          if (copied === 0) throw new MoatError('not_found', `no session with id ${sessionId}`);
          this.db.query('INSERT INTO messages (session_id, seq, role, content, turn, created_at) SELECT ?, seq, role, content, turn, created_at FROM messages WHERE session_id = ?').run(id, sessionId);
          this.db.query('UPDATE checkpoints SET session_id = ? WHERE session_id = ? AND turn >= ?').run(id, sessionId, atTurn);
          this.db.query('DELETE FROM messages WHERE session_id = ? AND seq >= ?').run(sessionId, atSeq);
          // A compaction after the rewind point went with the branch: replay from the start again.
          this.db.query('UPDATE sessions SET history_start_seq = 0, updated_at = ? WHERE id = ? AND history_start_seq >= ?').run(t, sessionId, atSeq);
          this.db.query('UPDATE sessions SET updated_at = ? WHERE id = ?').run(t, sessionId);
        })
        .immediate();
    } catch (e) {
      if (e instanceof MoatError) throw e;
      throw new MoatError('store', `could not rewind the conversation of ${sessionId}: ${errorMessage(e)}`, { cause: e });
    }
    return id;
  }

  /** Saved branches of a session (conversation rewinds), oldest first. */
  branches(sessionId: string): { id: string; atSeq: number; lastActive: number }[] {
    return this.db
      .query<{ id: string; branch_at_seq: number; updated_at: number }, [string]>('SELECT id, branch_at_seq, updated_at FROM sessions WHERE branch_of = ? ORDER BY rowid')
      .all(sessionId)
      .map((r) => ({ id: r.id, atSeq: r.branch_at_seq, lastActive: r.updated_at }));
  }
}
