/**
 * The scheduler's decisions, on an injected clock: which jobs are due, which
 * occurrences run, which are skipped (the previous run still going) or missed
 * (no scheduler was up; `catch_up` runs the latest of them once), and when a
 * run is stopped for its timeout. `moat cron serve` drives it with real time;
 * tests drive it with a hand-moved clock and a scripted runner.
 */
import type { CronJob, CronRepo } from '../store/index.ts';
import { errorMessage } from '../util/index.ts';
import { parseSchedule } from './schedule.ts';

/** Time as the scheduler sees it. */
export interface Clock {
  now(): number;
  /** Calls `fn` after `ms`; returns the cancel. */
  setTimer(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer: (ms, fn) => {
    const t = setTimeout(fn, ms);
    return () => clearTimeout(t);
  },
};

export interface RunOutcome {
  status: 'ok' | 'error';
  sessionId?: string;
  summary?: string;
  costUsd?: number;
}

/** Runs one job's task to its end; stops (and resolves) when the signal aborts. */
export type JobRunner = (job: CronJob, signal: AbortSignal) => Promise<RunOutcome>;

/** An occurrence later than this when the scheduler sees it counts as missed (the scheduler was not up). */
export const LATE_AFTER_MS = 60_000;
/** Occurrences counted when a scheduler was down long (an every-minute job over a month). */
const MAX_COUNTED = 10_000;

export interface SchedulerOptions {
  repo: CronRepo;
  runner: JobRunner;
  clock?: Clock;
  /** One line per decision (serve prints them). */
  log?: (line: string) => void;
}

export class Scheduler {
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private readonly clock: Clock;
  private readonly log: (line: string) => void;

  constructor(private readonly o: SchedulerOptions) {
    this.clock = o.clock ?? systemClock;
    this.log = o.log ?? (() => {});
  }

  /** Acts on every due occurrence; returns the runs it started (tests await them). */
  tick(): Promise<void>[] {
    const now = this.clock.now();
    const started: Promise<void>[] = [];
    for (const job of this.o.repo.list()) {
      if (job.paused || job.nextDueAt === undefined || job.nextDueAt > now) continue;
      let schedule;
      try {
        schedule = parseSchedule(job.expression, job.timezone);
      } catch (e) {
        // Stored jobs were checked when added; a zone removed from the system since then stops only this job.
        this.log(`${job.name}: ${errorMessage(e)}; paused`);
        this.o.repo.setPaused(job.name, true);
        continue;
      }
      // Every occurrence from the stored one up to now.
      let latest = job.nextDueAt;
      let earlier = 0;
      for (let next = schedule.next(latest); next !== undefined && next <= now && earlier < MAX_COUNTED; next = schedule.next(latest)) {
        latest = next;
        earlier++;
      }
      this.o.repo.setNextDue(job.name, schedule.next(now));
      const when = new Date(latest).toISOString();
      if (this.running.has(job.name)) {
        this.o.repo.recordNotRun(job.name, latest, 'skipped', `the run before was still going${earlier > 0 ? ` (and ${earlier} earlier occurrences)` : ''}`);
        this.log(`${job.name}: ${when} skipped, the run before is still going`);
        continue;
      }
      const late = now - latest > LATE_AFTER_MS;
      if (late && !job.catchUp) {
        this.o.repo.recordNotRun(job.name, latest, 'missed', `${earlier + 1} occurrence${earlier === 0 ? '' : 's'} passed while no scheduler ran (add the job with --catch-up to run the latest one late)`);
        this.log(`${job.name}: ${earlier + 1} missed occurrences, not run (no --catch-up)`);
        continue;
      }
      if (earlier > 0) this.o.repo.recordNotRun(job.name, latest, 'missed', `${earlier} earlier occurrence${earlier === 1 ? '' : 's'} passed while no scheduler ran; the latest runs now`);
      started.push(this.start(job, latest));
    }
    return started;
  }

  /** Runs a job now, outside its schedule (`moat cron run`), recorded like any run. */
  runNow(job: CronJob): Promise<void> {
    return this.start(job, this.clock.now());
  }

  isRunning(name: string): boolean {
    return this.running.has(name);
  }

  /** The earliest next occurrence over the active jobs (serve sleeps until then). */
  nextWake(): number | undefined {
    let min: number | undefined;
    for (const job of this.o.repo.list()) {
      if (job.paused || job.nextDueAt === undefined) continue;
      if (min === undefined || job.nextDueAt < min) min = job.nextDueAt;
    }
    return min;
  }

  /** Stops every run (they are recorded as errors: the scheduler stopped) and waits for them. */
  async stop(): Promise<void> {
    for (const r of this.running.values()) r.abort.abort(new Error('the scheduler stopped'));
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  private start(job: CronJob, scheduledFor: number): Promise<void> {
    const id = this.o.repo.startRun(job.name, scheduledFor);
    const abort = new AbortController();
    let timedOut = false;
    const timeoutMs = job.options.timeoutMs;
    const cancelTimer = timeoutMs === undefined ? () => {} : this.clock.setTimer(timeoutMs, () => {
      timedOut = true;
      abort.abort(new Error('timed out'));
    });
    this.log(`${job.name}: run ${id} started`);
    const done = (async () => {
      let outcome: RunOutcome;
      try {
        outcome = await this.o.runner(job, abort.signal);
      } catch (e) {
        outcome = { status: 'error', summary: errorMessage(e) };
      }
      cancelTimer();
      if (timedOut) {
        const limit = `${Math.round((timeoutMs ?? 0) / 1000)} s`;
        this.o.repo.finishRun(id, { ...outcome, status: 'timed_out', summary: `stopped after its timeout (${limit})` });
        this.log(`${job.name}: run ${id} timed out after ${limit}`);
      } else if (abort.signal.aborted) {
        this.o.repo.finishRun(id, { ...outcome, status: 'error', summary: 'stopped: the scheduler stopped' });
      } else {
        this.o.repo.finishRun(id, outcome);
        this.log(`${job.name}: run ${id} ${outcome.status}${outcome.summary === undefined ? '' : `: ${outcome.summary.split('\n')[0]?.slice(0, 120)}`}`);
      }
      this.running.delete(job.name);
    })();
    this.running.set(job.name, { abort, done });
    return done;
  }
}
