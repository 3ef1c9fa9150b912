/** Token usage and cost per model response. */
import type { Database } from 'bun:sqlite';
import { MoatError, errorMessage } from '../util/index.ts';
import type { NewUsage, UsageRow, UsageTotals } from './types.ts';

interface UsageRecord {
  session_id: string;
  turn: number;
  model: string;
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cost_usd: number;
  created_at: number;
}

/** Token usage and cost, one row per model response (a retried turn may have several). */
export class UsageRepo {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  record(u: NewUsage): void {
    try {
      this.db
        .query(
          `INSERT INTO usage (session_id, turn, model, input_tokens, output_tokens,
             cache_creation_input_tokens, cache_read_input_tokens, cost_usd, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          u.sessionId,
          u.turn,
          u.model,
          u.usage.inputTokens,
          u.usage.outputTokens,
          u.usage.cacheCreationInputTokens,
          u.usage.cacheReadInputTokens,
          u.costUsd,
          this.now(),
        );
    } catch (e) {
      if (errorMessage(e).includes('FOREIGN KEY')) {
        throw new MoatError('not_found', `no session with id ${u.sessionId}`, { cause: e });
      }
      throw new MoatError('store', `could not save usage of session ${u.sessionId}: ${errorMessage(e)}`, { cause: e });
    }
  }

  list(sessionId: string): UsageRow[] {
    return this.db
      .query<UsageRecord, [string]>('SELECT * FROM usage WHERE session_id = ? ORDER BY id')
      .all(sessionId)
      .map((r) => ({
        sessionId: r.session_id,
        turn: r.turn,
        model: r.model,
        usage: {
          inputTokens: r.input_tokens,
          outputTokens: r.output_tokens,
          cacheCreationInputTokens: r.cache_creation_input_tokens,
          cacheReadInputTokens: r.cache_read_input_tokens,
        },
        costUsd: r.cost_usd,
        createdAt: r.created_at,
      }));
  }

  /** Sums for a resumed session's running totals and for `/cost`. */
  totals(sessionId: string): UsageTotals {
    const r = this.db
      .query<
        { i: number; o: number; cc: number; cr: number; cost: number; turns: number },
        [string]
      >(
        `SELECT coalesce(sum(input_tokens), 0) AS i, coalesce(sum(output_tokens), 0) AS o,
           coalesce(sum(cache_creation_input_tokens), 0) AS cc, coalesce(sum(cache_read_input_tokens), 0) AS cr,
           coalesce(sum(cost_usd), 0.0) AS cost, count(DISTINCT turn) AS turns
         FROM usage WHERE session_id = ?`,
      )
      .get(sessionId);
    return {
      usage: {
        inputTokens: r?.i ?? 0,
        outputTokens: r?.o ?? 0,
        cacheCreationInputTokens: r?.cc ?? 0,
        cacheReadInputTokens: r?.cr ?? 0,
      },
      costUsd: r?.cost ?? 0,
      turns: r?.turns ?? 0,
    };
  }
}
