/** Scheduled jobs, their runs, and the one-scheduler lock (`moat cron`). */
import type { Database } from 'bun:sqlite';

/** The flags a job's run gets, stored as JSON. */
export interface CronJobOptions {
  model?: string;
  maxTurns?: number;
  maxBudgetUsd?: number;
  /** Milliseconds; the run is stopped and recorded as timed out past it. */
  timeoutMs?: number;
  allowedTools?: string[];
  permissionMode?: string;
  worktree?: boolean;
}

export interface CronJob {
  name: string;
  expression: string;
  timezone: string | undefined;
  task: string;
  cwd: string;
  options: CronJobOptions;
  catchUp: boolean;
  paused: boolean;
  /** Epoch ms of the next occurrence the scheduler acts on; undefined when the expression has no more. */
  nextDueAt: number | undefined;
  createdAt: number;
}

export type CronRunStatus = 'running' | 'ok' | 'error' | 'timed_out' | 'skipped' | 'missed';

export interface CronRun {
  id: number;
  job: string;
  scheduledFor: number;
  startedAt: number | undefined;
  finishedAt: number | undefined;
  status: CronRunStatus;
  sessionId: string | undefined;
  /** The answer's start, or why it failed, was skipped or missed. */
  summary: string | undefined;
  costUsd: number | undefined;
}

export interface CronLock {
  holder: string;
  pid: number;
  host: string;
  startedAt: number;
  heartbeatAt: number;
}

interface JobRow {
  name: string;
  expression: string;
  timezone: string | null;
  task: string;
  cwd: string;
  options: string;
  catch_up: number;
  paused: number;
  next_due_at: number | null;
  created_at: number;
}

interface RunRow {
  id: number;
  job: string;
  scheduled_for: number;
  started_at: number | null;
  finished_at: number | null;
  status: string;
  session_id: string | null;
  summary: string | null;
  cost_usd: number | null;
}

const jobOf = (r: JobRow): CronJob => ({
  name: r.name,
  expression: r.expression,
  timezone: r.timezone ?? undefined,
  task: r.task,
  cwd: r.cwd,
  options: JSON.parse(r.options) as CronJobOptions,
  catchUp: r.catch_up === 1,
  paused: r.paused === 1,
  nextDueAt: r.next_due_at ?? undefined,
  createdAt: r.created_at,
});

const runOf = (r: RunRow): CronRun => ({
  id: r.id,
  job: r.job,
  scheduledFor: r.scheduled_for,
  startedAt: r.started_at ?? undefined,
  finishedAt: r.finished_at ?? undefined,
  status: r.status as CronRunStatus,
  sessionId: r.session_id ?? undefined,
  summary: r.summary ?? undefined,
  costUsd: r.cost_usd ?? undefined,
});

export class CronRepo {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  /** Adds a job; false when one by that name exists. */
  add(job: Omit<CronJob, 'createdAt' | 'paused'>): boolean {
    const r = this.db
      .query('INSERT OR IGNORE INTO cron_jobs (name, expression, timezone, task, cwd, options, catch_up, paused, next_due_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?)')
      .run(job.name, job.expression, job.timezone ?? null, job.task, job.cwd, JSON.stringify(job.options), job.catchUp ? 1 : 0, job.nextDueAt ?? null, this.now());
    return r.changes === 1;
  }

  get(name: string): CronJob | undefined {
    const r = this.db.query<JobRow, [string]>('SELECT * FROM cron_jobs WHERE name = ?').get(name);
    return r === null ? undefined : jobOf(r);
  }

  list(): CronJob[] {
    return this.db.query<JobRow, []>('SELECT * FROM cron_jobs ORDER BY name').all().map(jobOf);
  }

  /** Removes a job and its runs; false when there was none. */
  remove(name: string): boolean {
    return this.db.query('DELETE FROM cron_jobs WHERE name = ?').run(name).changes === 1;
  }

  setPaused(name: string, paused: boolean, nextDueAt?: number): boolean {
    const r = paused
      ? this.db.query('UPDATE cron_jobs SET paused = 1 WHERE name = ?').run(name)
      : this.db.query('UPDATE cron_jobs SET paused = 0, next_due_at = ? WHERE name = ?').run(nextDueAt ?? null, name);
    return r.changes === 1;
  }

  setNextDue(name: string, nextDueAt: number | undefined): void {
    this.db.query('UPDATE cron_jobs SET next_due_at = ? WHERE name = ?').run(nextDueAt ?? null, name);
  }

  /** A run that starts now. */
  startRun(job: string, scheduledFor: number): number {
    const r = this.db.query('INSERT INTO cron_runs (job, scheduled_for, started_at, status) VALUES (?, ?, ?, ?)').run(job, scheduledFor, this.now(), 'running');
    return Number(r.lastInsertRowid);
  }

  finishRun(id: number, outcome: { status: Exclude<CronRunStatus, 'running' | 'skipped' | 'missed'>; sessionId?: string; summary?: string; costUsd?: number }): void {
    this.db
      .query('UPDATE cron_runs SET finished_at = ?, status = ?, session_id = ?, summary = ?, cost_usd = ? WHERE id = ?')
      .run(this.now(), outcome.status, outcome.sessionId ?? null, outcome.summary ?? null, outcome.costUsd ?? null, id);
  }

  /** An occurrence not run: skipped (the previous run was still going) or missed (no scheduler). */
  recordNotRun(job: string, scheduledFor: number, status: 'skipped' | 'missed', summary: string): void {
    this.db.query('INSERT INTO cron_runs (job, scheduled_for, status, summary) VALUES (?, ?, ?, ?)').run(job, scheduledFor, status, summary);
  }

  /** Newest first. */
  runs(job: string, limit = 20): CronRun[] {
    return this.db.query<RunRow, [string, number]>('SELECT * FROM cron_runs WHERE job = ? ORDER BY id DESC LIMIT ?').all(job, limit).map(runOf);
  }

  lastRun(job: string): CronRun | undefined {
    return this.runs(job, 1)[0];
  }

  /** Runs a scheduler left as running when it died: recorded as errors so they do not look live. */
  abandonRunning(summary: string): number {
    return this.db.query("UPDATE cron_runs SET status = 'error', finished_at = ?, summary = ? WHERE status = 'running'").run(this.now(), summary).changes;
  }

  /**
   * Takes the scheduler lock when it is free, ours, or its heartbeat is older
   * than `staleMs`; otherwise returns who holds it. One statement inside an
   * immediate transaction, so two schedulers starting at once cannot both win.
   */
  acquireLock(me: Omit<CronLock, 'startedAt' | 'heartbeatAt'>, staleMs: number): { ok: true } | { ok: false; holder: CronLock } {
    return this.db
      .transaction(() => {
        const now = this.now();
        const held = this.lockHolder();
        if (held !== undefined && held.holder !== me.holder && now - held.heartbeatAt < staleMs) return { ok: false as const, holder: held };
        this.db
          .query('INSERT INTO cron_lock (id, holder, pid, host, started_at, heartbeat_at) VALUES (1, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET holder = excluded.holder, pid = excluded.pid, host = excluded.host, started_at = excluded.started_at, heartbeat_at = excluded.heartbeat_at')
          .run(me.holder, me.pid, me.host, now, now);
        return { ok: true as const };
      })
      .immediate();
  }

  /** Renews the heartbeat; false when the lock is no longer ours (taken over after we stalled). */
  heartbeat(holder: string): boolean {
    return this.db.query('UPDATE cron_lock SET heartbeat_at = ? WHERE id = 1 AND holder = ?').run(this.now(), holder).changes === 1;
  }

  releaseLock(holder: string): void {
    this.db.query('DELETE FROM cron_lock WHERE id = 1 AND holder = ?').run(holder);
  }

  lockHolder(): CronLock | undefined {
    const r = this.db
      .query<{ holder: string; pid: number; host: string; started_at: number; heartbeat_at: number }, []>('SELECT holder, pid, host, started_at, heartbeat_at FROM cron_lock WHERE id = 1')
      .get();
    return r === null ? undefined : { holder: r.holder, pid: r.pid, host: r.host, startedAt: r.started_at, heartbeatAt: r.heartbeat_at };
  }
}
