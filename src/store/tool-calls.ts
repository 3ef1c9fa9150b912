/** One row per finished tool call. */
import type { Database } from 'bun:sqlite';
import { MoatError, errorMessage } from '../util/index.ts';
import type { NewToolCall, ToolCallRow } from './types.ts';

interface ToolCallRecord {
  session_id: string;
  tool_use_id: string;
  name: string;
  input: string;
  result: string;
  is_error: number;
  duration_ms: number;
  started_at: number;
  finished_at: number;
}

function toRow(r: ToolCallRecord): ToolCallRow {
  return {
    sessionId: r.session_id,
    toolUseId: r.tool_use_id,
    name: r.name,
    input: JSON.parse(r.input) as unknown,
    result: r.result,
    isError: r.is_error === 1,
    durationMs: r.duration_ms,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
}

/**
 * One row per finished tool call, with timing. The model-facing result also
 * lives in the messages (as a tool_result part); this table is for stats,
 * exports and debugging without parsing transcripts.
 */
export class ToolCallRepo {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  /** Records a finished call. Recording the same tool_use_id again replaces the earlier row. */
  record(call: NewToolCall): void {
    const finishedAt = call.finishedAt ?? this.now();
    const startedAt = call.startedAt ?? finishedAt - call.durationMs;
    try {
      this.db
        .query(
          `INSERT INTO tool_calls (session_id, tool_use_id, name, input, result, is_error, duration_ms, started_at, finished_at)
           VALUES ($sessionId, $toolUseId, $name, $input, $result, $isError, $durationMs, $startedAt, $finishedAt)
           ON CONFLICT (session_id, tool_use_id) DO UPDATE SET
             name = excluded.name, input = excluded.input, result = excluded.result, is_error = excluded.is_error,
             duration_ms = excluded.duration_ms, started_at = excluded.started_at, finished_at = excluded.finished_at`,
        )
        .run({
          sessionId: call.sessionId,
          toolUseId: call.toolUseId,
          name: call.name,
          // Input the model sent may be anything JSON; undefined (no input) is stored as null.
          input: JSON.stringify(call.input ?? null),
          result: call.result,
          isError: call.isError ? 1 : 0,
          durationMs: Math.round(call.durationMs),
          startedAt: Math.round(startedAt),
          finishedAt: Math.round(finishedAt),
        });
    } catch (e) {
      if (errorMessage(e).includes('FOREIGN KEY')) {
        throw new MoatError('not_found', `no session with id ${call.sessionId}`, { cause: e });
      }
      throw new MoatError('store', `could not save tool call ${call.toolUseId}: ${errorMessage(e)}`, { cause: e });
    }
  }

  /** In the order they finished. */
  list(sessionId: string): ToolCallRow[] {
    return this.db
      .query<ToolCallRecord, [string]>('SELECT * FROM tool_calls WHERE session_id = ? ORDER BY finished_at, id')
      .all(sessionId)
      .map(toRow);
  }
}
