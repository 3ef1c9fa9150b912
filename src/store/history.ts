/** Prompt history per project. */
import type { Database } from 'bun:sqlite';

/** Entries kept per project; older ones are pruned on add. */
export const HISTORY_LIMIT = 1000;

/** The prompt input's ↑/↓ history, kept per project like a shell's per-directory history. */
export class HistoryRepo {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  /**
   * Adds a prompt. Blank prompts and an exact repeat of the previous prompt
   * are skipped (like HISTCONTROL=ignoredups), so ↑ never shows the same line twice in a row.
   */
  add(projectRoot: string, text: string): void {
    if (text.trim() === '') return;
    this.db
      .transaction(() => {
        const last = this.db
          .query<{ text: string }, [string]>(
            'SELECT text FROM prompt_history WHERE project_root = ? ORDER BY id DESC LIMIT 1',
          )
          .get(projectRoot);
        if (last?.text === text) return;
        this.db
          .query('INSERT INTO prompt_history (project_root, text, created_at) VALUES (?, ?, ?)')
          .run(projectRoot, text, this.now());
        this.db
          .query(
            `DELETE FROM prompt_history WHERE project_root = ?1 AND id <= (
               SELECT id FROM prompt_history WHERE project_root = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)`,
          )
          .run(projectRoot, HISTORY_LIMIT);
      })
      .immediate();
  }

  /** Newest first. */
  list(projectRoot: string, limit = 100): string[] {
    return this.db
      .query<{ text: string }, [string, number]>(
        'SELECT text FROM prompt_history WHERE project_root = ? ORDER BY id DESC LIMIT ?',
      )
      .all(projectRoot, limit)
      .map((r) => r.text);
  }
}
