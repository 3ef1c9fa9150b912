/**
 * `moat cron serve`: one scheduler per database. It takes the lock (or says
 * who holds it), renews its heartbeat, wakes for the next due occurrence (at
 * least every 30 s, so jobs added meanwhile are seen), and on stop ends its
 * runs and gives the lock back.
 */
import type { CronLock, CronRepo } from '../store/index.ts';
import { Scheduler, systemClock, type Clock, type JobRunner } from './scheduler.ts';
import { nodeOs } from '../util/index.ts';

/** A lock whose heartbeat is older than this belongs to a scheduler that died: it may be taken over. */
export const LOCK_STALE_MS = 60_000;
const HEARTBEAT_MS = 15_000;
const MAX_SLEEP_MS = 30_000;

export class SchedulerLockedError extends Error {
  constructor(readonly holder: CronLock) {
    super(`another scheduler runs on this database: pid ${holder.pid} on ${holder.host}, since ${new Date(holder.startedAt).toISOString()} (last heartbeat ${new Date(holder.heartbeatAt).toISOString()})`);
    this.name = 'SchedulerLockedError';
  }
}

export interface ServeOptions {
  repo: CronRepo;
  runner: JobRunner;
  signal: AbortSignal;
  clock?: Clock;
  log?: (line: string) => void;
  /** The database, for the start-up line. */
  where?: string;
}

/** Takes the scheduler lock for this process; throws SchedulerLockedError when another live scheduler has it. */
export function takeLock(repo: CronRepo, clockNow: () => number = Date.now): { holder: string } {
  const me = { holder: crypto.randomUUID(), pid: process.pid, host: nodeOs().hostname() };
  const before = repo.lockHolder();
  const got = repo.acquireLock(me, LOCK_STALE_MS);
  if (!got.ok) throw new SchedulerLockedError(got.holder);
  // A scheduler that died left its runs marked running: they ended with it.
  if (before !== undefined && clockNow() - before.heartbeatAt >= LOCK_STALE_MS) repo.abandonRunning(`its scheduler (pid ${before.pid} on ${before.host}) stopped without finishing it`);
  return me;
}

export async function serve(o: ServeOptions): Promise<void> {
  const clock = o.clock ?? systemClock;
  const log = o.log ?? (() => {});
  const { holder } = takeLock(o.repo, () => clock.now());
  log(`moat cron: scheduling ${o.repo.list().filter((j) => !j.paused).length} jobs${o.where === undefined ? '' : ` from ${o.where}`}`);
  const scheduler = new Scheduler({ repo: o.repo, runner: o.runner, clock, log });
  const lost = new AbortController();
  const beat = setInterval(() => {
    if (!o.repo.heartbeat(holder)) {
      log('the scheduler lock was taken over (this process stalled too long); stopping');
      lost.abort();
    }
  }, HEARTBEAT_MS);
  try {
    while (!o.signal.aborted && !lost.signal.aborted) {
      void scheduler.tick();
      const wake = scheduler.nextWake();
      const ms = Math.max(50, Math.min(MAX_SLEEP_MS, wake === undefined ? MAX_SLEEP_MS : wake - clock.now()));
      await new Promise<void>((resolve) => {
        const cancel = clock.setTimer(ms, resolve);
        const stop = () => {
          cancel();
          resolve();
        };
        o.signal.addEventListener('abort', stop, { once: true });
        lost.signal.addEventListener('abort', stop, { once: true });
      });
    }
  } finally {
    clearInterval(beat);
    await scheduler.stop();
    o.repo.releaseLock(holder);
  }
}
