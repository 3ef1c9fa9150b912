/** Session rows: create, list, resume, status. */
import type { Database } from 'bun:sqlite';
import type { TodoItem } from '../tools/index.ts';
import { MoatError, errorMessage, newId } from '../util/index.ts';
import type {
  ListSessionsOptions,
  NewSession,
  SessionListItem,
  SessionRow,
  SessionStatus,
} from './types.ts';

interface SessionRecord {
  id: string;
  cwd: string;
  project_root: string;
  git_branch: string | null;
  model: string;
  title: string | null;
  parent_id: string | null;
  agent_id: string | null;
  created_at: number;
  updated_at: number;
  permission_mode: string;
  todos: string;
  status: string;
  history_start_seq: number;
  branch_of: string | null;
  branch_at_seq: number | null;
}

interface ListRecord extends SessionRecord {
  message_count: number;
  first_content: string | null;
}

const STATUSES: readonly SessionStatus[] = ['active', 'completed', 'aborted', 'error'];

function toRow(r: SessionRecord): SessionRow {
  return {
    id: r.id,
    cwd: r.cwd,
    projectRoot: r.project_root,
    gitBranch: r.git_branch,
    model: r.model,
    title: r.title,
    parentId: r.parent_id,
    agentId: r.agent_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    permissionMode: r.permission_mode,
    todos: JSON.parse(r.todos) as TodoItem[],
    // A status written by a newer moat is shown as finished rather than crashing the list.
    status: (STATUSES as readonly string[]).includes(r.status) ? (r.status as SessionStatus) : 'completed',
    historyStartSeq: r.history_start_seq,
    branchOf: r.branch_of ?? null,
    branchAtSeq: r.branch_at_seq ?? null,
  };
}

/** The text of a stored user message, flattened to one short line. */
function promptLine(content: string | null): string | null {
  if (content === null) return null;
  const parts = JSON.parse(content) as { type: string; text?: string }[];
  const text = parts
    .filter((p) => p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (text === '') return null;
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

const LIST_COLUMNS = `s.*,
  (SELECT count(*) FROM messages m WHERE m.session_id = s.id) AS message_count,
  (SELECT content FROM messages m WHERE m.session_id = s.id AND m.role = 'user' ORDER BY m.seq LIMIT 1) AS first_content`;

export class SessionRepo {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  create(input: NewSession): SessionRow {
    const t = this.now();
    const id = input.id ?? newId();
    try {
      this.db
        .query(
          `INSERT INTO sessions (id, cwd, project_root, git_branch, model, title, parent_id, agent_id,
             created_at, updated_at, permission_mode, todos, status)
           VALUES ($id, $cwd, $projectRoot, $gitBranch, $model, $title, $parentId, $agentId,
             $t, $t, $permissionMode, '[]', 'active')`,
        )
        .run({
          id,
          cwd: input.cwd,
          projectRoot: input.projectRoot,
          gitBranch: input.gitBranch ?? null,
          model: input.model,
          title: input.title ?? null,
          parentId: input.parentId ?? null,
          agentId: input.agentId ?? null,
          t,
          permissionMode: input.permissionMode,
        });
    } catch (e) {
      const msg = errorMessage(e);
      if (msg.includes('FOREIGN KEY')) {
        throw new MoatError('not_found', `no parent session with id ${input.parentId ?? ''}`, { cause: e });
      }
      if (msg.includes('UNIQUE')) throw new MoatError('store', `a session with id ${id} already exists`, { cause: e });
      throw new MoatError('store', `could not create a session: ${msg}`, { cause: e });
    }
    return this.require(id);
  }

  get(id: string): SessionRow | undefined {
    const r = this.db.query<SessionRecord, [string]>('SELECT * FROM sessions WHERE id = ?').get(id);
    return r ? toRow(r) : undefined;
  }

  /** Like `get`, but a missing session is a `not_found` error. */
  require(id: string): SessionRow {
    const row = this.get(id);
    if (!row) throw new MoatError('not_found', `no session with id ${id}`);
    return row;
  }

  /** The most recently updated top-level session started in `cwd` (for `--continue`). */
  latestForCwd(cwd: string): SessionRow | undefined {
    const r = this.db
      .query<SessionRecord, [string]>(
        'SELECT * FROM sessions WHERE cwd = ? AND parent_id IS NULL ORDER BY updated_at DESC, rowid DESC LIMIT 1',
      )
      .get(cwd);
    return r ? toRow(r) : undefined;
  }

  /** Newest first. Without `cwd` or with `all`, lists every directory. */
  list(opts: ListSessionsOptions = {}): SessionListItem[] {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (!opts.all && opts.cwd !== undefined) {
      where.push('s.cwd = ?');
      params.push(opts.cwd);
    }
    if (!opts.includeChildren) where.push('s.parent_id IS NULL');
    params.push(opts.limit ?? 50);
    const sql = `SELECT ${LIST_COLUMNS} FROM sessions s
      ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY s.updated_at DESC, s.rowid DESC LIMIT ?`;
    return this.db
      .query<ListRecord, (string | number)[]>(sql)
      .all(...params)
      .map((r) => ({ ...toRow(r), messageCount: r.message_count, firstPrompt: promptLine(r.first_content) }));
  }

  /** Sub-agent sessions spawned by `parentId`, oldest first. */
  children(parentId: string): SessionRow[] {
    return this.db
      .query<SessionRecord, [string]>('SELECT * FROM sessions WHERE parent_id = ? ORDER BY created_at, rowid')
      .all(parentId)
      .map(toRow);
  }

  /** Deletes the session with its messages, tool calls, usage and sub-agent sessions. */
  remove(id: string): boolean {
    return this.db.query('DELETE FROM sessions WHERE id = ?').run(id).changes > 0;
  }

  touch(id: string): void {
    this.update(id, null, {});
  }

  setTitle(id: string, title: string): void {
    this.update(id, 'title = $title', { title });
  }

  setTodos(id: string, items: TodoItem[]): void {
    this.update(id, 'todos = $todos', { todos: JSON.stringify(items) });
  }

  /** After compaction: resume replays messages from this seq (the summary) on. */
  setHistoryStart(id: string, seq: number): void {
    this.update(id, 'history_start_seq = $seq', { seq });
  }

  setStatus(id: string, status: SessionStatus): void {
    this.update(id, 'status = $status', { status });
  }

  /** The model or permission mode changed mid-session (`/model`, Shift-Tab). */
  setModel(id: string, model: string): void {
    this.update(id, 'model = $model', { model });
  }

  setPermissionMode(id: string, permissionMode: string): void {
    this.update(id, 'permission_mode = $permissionMode', { permissionMode });
  }

  /**
   * The full id for a unique prefix, like git's abbreviated hashes. A full id
   * always wins, even if it is also a prefix of another id.
   */
  resolvePrefix(prefix: string): string {
    const p = prefix.trim().toLowerCase();
    if (p === '') throw new MoatError('usage', 'empty session id');
    // A range scan on the primary key; '\uffff' sorts after every ASCII id character.
    const rows = this.db
      .query<{ id: string }, [string, string]>('SELECT id FROM sessions WHERE id >= ? AND id < ? ORDER BY id LIMIT 6')
      .all(p, `${p}\uffff`);
    const exact = rows.find((r) => r.id === p);
    if (exact) return exact.id;
    const [first, second] = rows;
    if (!first) throw new MoatError('not_found', `no session matches '${prefix}'`);
    if (second) {
      const shown = rows.slice(0, 5).map((r) => r.id.slice(0, 13));
      throw new MoatError(
        'usage',
        `session id '${prefix}' is ambiguous: it matches ${shown.join(', ')}${rows.length > 5 ? ', …' : ''}`,
      );
    }
    return first.id;
  }

  /** Every change bumps `updated_at`, which orders `list` and `latestForCwd`. */
  private update(id: string, set: string | null, params: Record<string, string | number>): void {
    const changes = this.db
      .query(`UPDATE sessions SET ${set === null ? '' : `${set}, `}updated_at = $t WHERE id = $id`)
      .run({ ...params, id, t: this.now() }).changes;
    if (changes === 0) throw new MoatError('not_found', `no session with id ${id}`);
  }
}
