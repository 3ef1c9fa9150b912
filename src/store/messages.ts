/** Persisted messages of a session. */
import type { Database } from 'bun:sqlite';
import type { Message } from '../providers/index.ts';
import { MoatError, errorMessage } from '../util/index.ts';
import type { StoredMessage } from './types.ts';

interface MessageRecord {
  session_id: string;
  seq: number;
  role: string;
  content: string;
  turn: number;
  created_at: number;
}

function toStored(r: MessageRecord): StoredMessage {
  // role and content are stored apart so SQL can filter on role; rebuild the neutral shape.
  const message = { role: r.role, content: JSON.parse(r.content) } as Message;
  return { sessionId: r.session_id, seq: r.seq, turn: r.turn, createdAt: r.created_at, message };
}

export class MessageRepo {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  /**
   * Persists one finished message and returns its sequence number (1, 2, 3 …
   * per session). Called as each message finishes, so a crash loses at most
   * the message in flight. The IMMEDIATE transaction takes the write lock
   * before reading max(seq): two writers to one session queue on
   * busy_timeout instead of computing the same seq.
   */
  append(sessionId: string, message: Message, turn: number): number {
    const t = this.now();
    try {
      return this.db
        .transaction(() => {
          const row = this.db
            .query<{ seq: number }, [string, string, string, number, number]>(
              `INSERT INTO messages (session_id, seq, role, content, turn, created_at)
               VALUES (?1, (SELECT coalesce(max(seq), 0) + 1 FROM messages WHERE session_id = ?1), ?2, ?3, ?4, ?5)
               RETURNING seq`,
            )
            .get(sessionId, message.role, JSON.stringify(message.content), turn, t);
          this.db.query('UPDATE sessions SET updated_at = ? WHERE id = ?').run(t, sessionId);
          if (!row) throw new Error('insert returned no row');
          return row.seq;
        })
        .immediate();
    } catch (e) {
      if (errorMessage(e).includes('FOREIGN KEY')) {
        throw new MoatError('not_found', `no session with id ${sessionId}`, { cause: e });
      }
      throw new MoatError('store', `could not save a message of session ${sessionId}: ${errorMessage(e)}`, {
        cause: e,
      });
    }
  }

  /** Every message of the session, in order. */
  list(sessionId: string): StoredMessage[] {
    return this.db
      .query<MessageRecord, [string]>('SELECT * FROM messages WHERE session_id = ? ORDER BY seq')
      .all(sessionId)
      .map(toStored);
  }

  /** Messages from `seq` on (after a compaction, the summary and what followed). */
  listFrom(sessionId: string, seq: number): StoredMessage[] {
    return this.db
      .query<MessageRecord, [string, number]>('SELECT * FROM messages WHERE session_id = ? AND seq >= ? ORDER BY seq')
      .all(sessionId, seq)
      .map(toStored);
  }

  /** The conversation as the agent replays it on resume. */
  history(sessionId: string): Message[] {
    return this.list(sessionId).map((m) => m.message);
  }

  count(sessionId: string): number {
    return (
      this.db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM messages WHERE session_id = ?').get(sessionId)
        ?.n ?? 0
    );
  }
}
