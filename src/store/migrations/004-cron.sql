-- Scheduled jobs (`moat cron`).
--
-- cron_jobs: one row per job. `options` is the run's flags as JSON (model,
-- max turns, budget, timeout, allowed tools, permission mode, worktree).
-- `next_due_at` is the next occurrence the scheduler will act on; it moves
-- forward only when an occurrence was run, skipped or missed.
CREATE TABLE cron_jobs (
  name        TEXT    PRIMARY KEY,
  expression  TEXT    NOT NULL,
  timezone    TEXT,
  task        TEXT    NOT NULL,
  cwd         TEXT    NOT NULL,
  options     TEXT    NOT NULL,
  catch_up    INTEGER NOT NULL DEFAULT 0,
  paused      INTEGER NOT NULL DEFAULT 0,
  next_due_at INTEGER,
  created_at  INTEGER NOT NULL
) STRICT;

-- One row per occurrence acted on: run (running, ok, error, timed_out) or not
-- run (skipped: the previous run was still going; missed: the scheduler was down).
CREATE TABLE cron_runs (
  id            INTEGER PRIMARY KEY,
  job           TEXT    NOT NULL REFERENCES cron_jobs(name) ON DELETE CASCADE,
  scheduled_for INTEGER NOT NULL,
  started_at    INTEGER,
  finished_at   INTEGER,
  status        TEXT    NOT NULL,
  session_id    TEXT,
  summary       TEXT,
  cost_usd      REAL
) STRICT;
CREATE INDEX cron_runs_job ON cron_runs(job, id);

-- Exactly one scheduler per database: the holder renews heartbeat_at; a lock
-- whose heartbeat is older than the stale limit may be taken over.
CREATE TABLE cron_lock (
  id           INTEGER PRIMARY KEY CHECK (id = 1),
  holder       TEXT    NOT NULL,
  pid          INTEGER NOT NULL,
  host         TEXT    NOT NULL,
  started_at   INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL
) STRICT;
