/**
 * The scheduler on a hand-moved clock and a scripted runner (no sleeping):
 * due, skipped while running, missed then caught up, timeout, paused, and two
 * schedulers on one database.
 */
import { afterEach, describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { addJob, LOCK_STALE_MS, Scheduler, SchedulerLockedError, takeLock, type Clock, type JobRunner, type RunOutcome } from '../../src/cron/index.ts';
import { openStore, type Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp.ts';

const T0 = Date.parse('2026-11-24T12:01:00Z');
const at = (iso: string) => Date.parse(`2026-11-24T${iso}Z`);

class FakeClock implements Clock {
  timers: { due: number; fn: () => void; live: boolean }[] = [];
  constructor(public t: number) {}
  now = () => this.t;
  setTimer(ms: number, fn: () => void): () => void {
    const timer = { due: this.t + ms, fn, live: true };
    this.timers.push(timer);
    return () => (timer.live = false);
  }
  /** Moves time on, firing the timers that come due, in order. */
  set(t: number): void {
    this.t = t;
    for (const timer of this.timers.filter((x) => x.live && x.due <= t).sort((a, b) => a.due - b.due)) {
      timer.live = false;
      timer.fn();
    }
  }
}

/** A runner whose runs end when the test says so (or when aborted). */
function scriptedRunner() {
  const calls: { job: string; finish: (o: RunOutcome) => void; signal: AbortSignal }[] = [];
  const runner: JobRunner = (job, signal) =>
    new Promise<RunOutcome>((resolve) => {
      calls.push({ job: job.name, finish: resolve, signal });
      signal.addEventListener('abort', () => resolve({ status: 'error', summary: 'killed' }), { once: true });
    });
  return { runner, calls };
}

let stores: Store[] = [];
afterEach(() => {
  for (const s of stores) s.close();
  stores = [];
});

function setup(clock: FakeClock, path = join(tempDir('moat-cron-'), 'moat.db')) {
  const store = openStore(path, { now: clock.now });
  stores.push(store);
  const { runner, calls } = scriptedRunner();
  const scheduler = new Scheduler({ repo: store.cron, runner, clock });
  return { store, scheduler, calls, path };
}

const job = (o: Partial<Parameters<typeof addJob>[1]> = {}) => ({ expression: '*/5 * * * *', task: 'check the build', name: 'build', cwd: '/work/project', timezone: 'UTC', ...o });

describe('the scheduler', () => {
  test('a job runs when due, not before; its run is recorded with the outcome and the next occurrence follows', async () => {
    const clock = new FakeClock(T0);
    const { store, scheduler, calls } = setup(clock);
    expect(addJob(store.cron, job(), clock.now()).nextDueAt).toBe(at('12:05:00'));
    clock.set(at('12:04:59'));
    expect(scheduler.tick()).toHaveLength(0);
    clock.set(at('12:05:02'));
    const [run] = scheduler.tick();
    expect(calls.map((c) => c.job)).toEqual(['build']);
    expect(store.cron.lastRun('build')).toMatchObject({ status: 'running', scheduledFor: at('12:05:00') });
    calls[0]?.finish({ status: 'ok', summary: 'all green', sessionId: 'sess-1', costUsd: 0.01 });
    await run;
    expect(store.cron.lastRun('build')).toMatchObject({ status: 'ok', summary: 'all green', sessionId: 'sess-1', costUsd: 0.01 });
    expect(store.cron.get('build')?.nextDueAt).toBe(at('12:10:00'));
  });

  test('an occurrence that comes while the run before is still going is skipped and recorded', async () => {
    const clock = new FakeClock(T0);
    const { store, scheduler, calls } = setup(clock);
    addJob(store.cron, job(), clock.now());
    clock.set(at('12:05:00'));
    const [first] = scheduler.tick();
    clock.set(at('12:10:01'));
    expect(scheduler.tick()).toHaveLength(0);
    expect(store.cron.runs('build').map((r) => [r.status, r.scheduledFor])).toEqual([
      ['skipped', at('12:10:00')],
      ['running', at('12:05:00')],
    ]);
    calls[0]?.finish({ status: 'ok' });
    await first;
    clock.set(at('12:15:00'));
    expect(scheduler.tick()).toHaveLength(1);
    expect(calls).toHaveLength(2);
  });

  test('occurrences missed while no scheduler ran: skipped without --catch-up, the latest run once with it', () => {
    const clock = new FakeClock(T0);
    const { store, scheduler, calls } = setup(clock);
    addJob(store.cron, job(), clock.now());
    addJob(store.cron, job({ name: 'eager', catchUp: true }), clock.now());
    // Down from 12:01 to 13:02:30: 12:05 … 13:00 passed, twelve occurrences, the latest 2.5 minutes ago.
    clock.set(at('13:02:30'));
    void scheduler.tick();
    expect(calls.map((c) => c.job)).toEqual(['eager']);
    expect(store.cron.runs('build').map((r) => [r.status, r.summary])).toEqual([['missed', '12 occurrences passed while no scheduler ran (add the job with --catch-up to run the latest one late)']]);
    expect(store.cron.runs('eager').map((r) => [r.status, r.scheduledFor])).toEqual([
      ['running', at('13:00:00')],
      ['missed', at('13:00:00')],
    ]);
    expect(store.cron.runs('eager')[1]?.summary).toBe('11 earlier occurrences passed while no scheduler ran; the latest runs now');
    expect(store.cron.get('build')?.nextDueAt).toBe(at('13:05:00'));
  });

  test('coming up just after an occurrence (within a minute) runs it: only the earlier ones count as missed', () => {
    const clock = new FakeClock(T0);
    const { store, scheduler, calls } = setup(clock);
    addJob(store.cron, job(), clock.now());
    clock.set(at('12:10:30'));
    void scheduler.tick();
    expect(calls.map((c) => c.job)).toEqual(['build']);
    expect(store.cron.runs('build').map((r) => [r.status, r.summary ?? ''])).toEqual([
      ['running', ''],
      ['missed', '1 earlier occurrence passed while no scheduler ran; the latest runs now'],
    ]);
  });

  test('a run past its timeout is stopped and recorded as timed out', async () => {
    const clock = new FakeClock(T0);
    const { store, scheduler, calls } = setup(clock);
    addJob(store.cron, job({ options: { timeoutMs: 90_000 } }), clock.now());
    clock.set(at('12:05:00'));
    const [run] = scheduler.tick();
    clock.set(at('12:06:29'));
    expect(calls[0]?.signal.aborted).toBe(false);
    clock.set(at('12:06:30'));
    expect(calls[0]?.signal.aborted).toBe(true);
    await run;
    expect(store.cron.lastRun('build')).toMatchObject({ status: 'timed_out', summary: 'stopped after its timeout (90 s)' });
    expect(scheduler.isRunning('build')).toBe(false);
  });

  test('a paused job is not run; a bad expression or zone is refused when added, naming the field', () => {
    const clock = new FakeClock(T0);
    const { store, scheduler, calls } = setup(clock);
    addJob(store.cron, job(), clock.now());
    store.cron.setPaused('build', true);
    clock.set(at('12:30:00'));
    void scheduler.tick();
    expect(calls).toHaveLength(0);
    expect(() => addJob(store.cron, job({ name: 'x', expression: '61 * * * *' }), clock.now())).toThrow('invalid minute "61" in cron expression "61 * * * *"');
    expect(() => addJob(store.cron, job({ name: 'x', expression: '0 9 * * 8' }), clock.now())).toThrow('invalid day of week "8"');
    expect(() => addJob(store.cron, job({ name: 'x', timezone: 'Mars/Olympus' }), clock.now())).toThrow('unknown time zone "Mars/Olympus"');
    expect(() => addJob(store.cron, job({ name: 'x', expression: '0 0 30 2 *' }), clock.now())).toThrow('never comes round');
    expect(() => addJob(store.cron, job(), clock.now())).toThrow('a job named build exists already');
  });

  test('time zones: "0 9 * * 1-5" in Europe/Berlin is 08:00 UTC in winter and 07:00 in summer; names come from the task', () => {
    const clock = new FakeClock(T0);
    const { store } = setup(clock);
    const winter = addJob(store.cron, { expression: '0 9 * * 1-5', task: "Summarise yesterday's commits!", cwd: '/p', timezone: 'europe/berlin' }, clock.now());
    expect(winter).toMatchObject({ name: 'summarise-yesterdays-commits', timezone: 'Europe/Berlin', nextDueAt: Date.parse('2026-11-25T08:00:00Z') });
    const summer = addJob(store.cron, { expression: '0 9 * * 1-5', task: "Summarise yesterday's commits!", cwd: '/p', timezone: 'Europe/Berlin' }, Date.parse('2026-07-01T10:00:00Z'));
    expect(summer).toMatchObject({ name: 'summarise-yesterdays-commits-2', nextDueAt: Date.parse('2026-07-02T07:00:00Z') });
  });
});

describe('one scheduler per database', () => {
  test('a second scheduler is refused with who holds the lock; a dead one (stale heartbeat) is taken over and its runs closed', () => {
    const clock = new FakeClock(T0);
    const a = setup(clock);
    const b = setup(clock, a.path);
    const first = takeLock(a.store.cron, clock.now);
    expect(() => takeLock(b.store.cron, clock.now)).toThrow(SchedulerLockedError);
    expect(() => takeLock(b.store.cron, clock.now)).toThrow(`another scheduler runs on this database: pid ${process.pid}`);
    addJob(a.store.cron, job(), clock.now());
    clock.set(at('12:05:00'));
    void a.scheduler.tick();
    expect(a.store.cron.heartbeat(first.holder)).toBe(true);
    // a stops renewing its heartbeat (it hung or died) …
    clock.set(at('12:05:00') + LOCK_STALE_MS - 1);
    expect(() => takeLock(b.store.cron, clock.now)).toThrow(SchedulerLockedError);
    clock.set(at('12:05:00') + LOCK_STALE_MS + 1);
    const second = takeLock(b.store.cron, clock.now);
    expect(b.store.cron.lockHolder()?.holder).toBe(second.holder);
    expect(b.store.cron.lastRun('build')).toMatchObject({ status: 'error' });
    expect(b.store.cron.lastRun('build')?.summary).toContain('stopped without finishing it');
    // … and a cannot renew a lock it lost.
    expect(a.store.cron.heartbeat(first.holder)).toBe(false);
  });
});
