/** `moat cron` handlers: jobs in the database, the scheduler in the foreground, a systemd user unit. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { moatPaths } from '../config/index.ts';
import { CronExpressionError, JobError, SERVICE_NAME, Scheduler, SchedulerLockedError, addJob, processRunner, resumeJob, serve, serviceUnit } from '../cron/index.ts';
import { isCompiledBinary } from '../sandbox/index.ts';
import { openStore, type CronJob, type CronRun, type Store } from '../store/index.ts';
import { errorMessage, formatAge, MoatError, parseDuration, homeOf } from '../util/index.ts';
import type { CronAddOptions } from './cron-program.ts';
import { err, out } from './write-out.ts';

const env = process.env;

/** How to start moat itself: the binary, or bun with this entry file in development. */
export function selfCommand(): string[] {
  return isCompiledBinary() ? [process.execPath] : [process.execPath, Bun.main];
}

async function withStore<T>(work: (store: Store) => Promise<T> | T): Promise<T> {
  const store = openStore(moatPaths(env).dbFile);
  try {
    return await work(store);
  } finally {
    store.close();
  }
}

function positive(flag: string, value: string | undefined, integer: boolean): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) throw new MoatError('usage', `${flag} must be a positive ${integer ? 'whole ' : ''}number, not "${value}"`);
  return n;
}

function when(ms: number | undefined): string {
  if (ms === undefined) return '—';
  return new Date(ms).toISOString().replace('T', ' ').replace(/:\d\d\.\d+Z$/, 'Z');
}

function runLine(r: CronRun, withSummary = true): string {
  const took = r.startedAt !== undefined && r.finishedAt !== undefined ? ` ${((r.finishedAt - r.startedAt) / 1000).toFixed(1)} s` : '';
  const cost = r.costUsd === undefined ? '' : ` $${r.costUsd.toFixed(4)}`;
  const session = r.sessionId === undefined ? '' : ` session ${r.sessionId.slice(0, 8)}`;
  return `${when(r.scheduledFor)}  ${r.status.padEnd(9)}${took}${cost}${session}${r.summary === undefined || !withSummary ? '' : `  ${r.summary.split('\n')[0]?.slice(0, 100)}`}`;
}

async function cronAdd(expression: string, task: string, opts: CronAddOptions): Promise<number> {
  let timeoutMs: number | undefined;
  if (opts.timeout !== undefined) {
    timeoutMs = parseDuration(opts.timeout);
    if (timeoutMs === undefined) throw new MoatError('usage', `--timeout takes a duration such as 30s, 10m or 1h30m, not "${opts.timeout}"`);
  }
  const maxTurns = positive('--max-turns', opts.maxTurns, true);
  const maxBudgetUsd = positive('--max-budget-usd', opts.maxBudgetUsd, false);
  const options = {
    ...(opts.model === undefined ? {} : { model: opts.model }),
    ...(maxTurns === undefined ? {} : { maxTurns }),
    ...(maxBudgetUsd === undefined ? {} : { maxBudgetUsd }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    ...(opts.allowedTools === undefined ? {} : { allowedTools: opts.allowedTools }),
    ...(opts.permissionMode === undefined ? {} : { permissionMode: opts.permissionMode as 'default' }),
    ...(opts.worktree === true ? { worktree: true } : {}),
  };
  return withStore((store) => {
    let job: CronJob;
    try {
      job = addJob(
        store.cron,
        { expression, task, cwd: resolve(opts.cwd ?? process.cwd()), catchUp: opts.catchUp === true, options, ...(opts.name === undefined ? {} : { name: opts.name }), ...(opts.tz === undefined ? {} : { timezone: opts.tz }) },
        Date.now(),
      );
    } catch (e) {
      if (e instanceof CronExpressionError || e instanceof JobError) throw new MoatError('usage', e.message);
      if (e instanceof Error && e.name === 'ZodError') throw new MoatError('usage', `--name: ${JSON.parse(e.message)[0]?.message ?? e.message}`);
      throw e;
    }
    out(`Added ${job.name}: "${job.expression}"${job.timezone === undefined ? '' : ` (${job.timezone})`}, next run ${when(job.nextDueAt)}, in ${job.cwd}\n`);
    if (store.cron.lockHolder() === undefined) out('No scheduler is running: start one with moat cron serve (or moat cron install-service).\n');
    return 0;
  });
}

async function cronList(opts: { json?: boolean }): Promise<number> {
  return withStore((store) => {
    const jobs = store.cron.list();
    if (opts.json === true) {
      out(`${JSON.stringify(jobs.map((j) => ({ ...j, lastRun: store.cron.lastRun(j.name) ?? null })), null, 2)}\n`);
      return 0;
    }
    if (jobs.length === 0) {
      out('No scheduled jobs. Add one: moat cron add "0 9 * * 1-5" "summarise yesterday\'s commits"\n');
      return 0;
    }
    for (const j of jobs) {
      const last = store.cron.lastRun(j.name);
      out(`${j.name}  "${j.expression}"${j.timezone === undefined ? '' : ` ${j.timezone}`}${j.paused ? '  paused' : `  next ${when(j.nextDueAt)}`}\n`);
      out(`  ${j.task.split('\n')[0]?.slice(0, 100)}\n  in ${j.cwd}${last === undefined ? '  · never run' : `  · last: ${runLine(last)}`}\n`);
    }
    const lock = store.cron.lockHolder();
    out(lock === undefined ? 'No scheduler is running (moat cron serve).\n' : `Scheduler: pid ${lock.pid} on ${lock.host}, heartbeat ${formatAge(lock.heartbeatAt)}.\n`);
    return 0;
  });
}

function requireJob(store: Store, name: string): CronJob {
  const job = store.cron.get(name);
  if (job === undefined) throw new MoatError('not_found', `no scheduled job named ${name} (moat cron list shows them)`);
  return job;
}

async function cronRm(name: string): Promise<number> {
  return withStore((store) => {
    requireJob(store, name);
    store.cron.remove(name);
    out(`Removed ${name}.\n`);
    return 0;
  });
}

async function cronPause(name: string): Promise<number> {
  return withStore((store) => {
    requireJob(store, name);
    store.cron.setPaused(name, true);
    out(`Paused ${name}.\n`);
    return 0;
  });
}

async function cronResume(name: string): Promise<number> {
  return withStore((store) => {
    requireJob(store, name);
    resumeJob(store.cron, name, Date.now());
    out(`Resumed ${name}: next run ${when(store.cron.get(name)?.nextDueAt)}.\n`);
    return 0;
  });
}

async function cronRun(name: string): Promise<number> {
  return withStore(async (store) => {
    const job = requireJob(store, name);
    const scheduler = new Scheduler({ repo: store.cron, runner: processRunner(selfCommand(), env) });
    const stop = () => void scheduler.stop();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    try {
      await scheduler.runNow(job);
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
    const run = store.cron.lastRun(name);
    if (run === undefined) return 1;
    out(`${runLine(run, run.status !== 'ok')}\n`);
    if (run.status === 'ok' && run.summary !== undefined) out(`\n${run.summary}\n`);
    return run.status === 'ok' ? 0 : 1;
  });
}

async function cronLogs(name: string, opts: { limit?: string }): Promise<number> {
  const limit = positive('--limit', opts.limit, true) ?? 20;
  return withStore((store) => {
    requireJob(store, name);
    const runs = store.cron.runs(name, limit);
    if (runs.length === 0) out(`${name} has not run yet.\n`);
    for (const r of runs) out(`${runLine(r)}\n`);
    return 0;
  });
}

async function cronServe(): Promise<number> {
  return withStore(async (store) => {
    const abort = new AbortController();
    const stop = () => abort.abort();
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    const log = (line: string) => err(`${new Date().toISOString()} ${line}\n`);
    try {
      await serve({ repo: store.cron, runner: processRunner(selfCommand(), env), signal: abort.signal, log, where: store.path });
    } catch (e) {
      if (e instanceof SchedulerLockedError) throw new MoatError('usage', e.message);
      throw e;
    } finally {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    }
    log('moat cron: stopped');
    return 0;
  });
}

async function cronInstallService(): Promise<number> {
  const xdg = env.XDG_CONFIG_HOME;
  const dir = join(xdg !== undefined && xdg.startsWith('/') ? xdg : join(homeOf(env), '.config'), 'systemd', 'user');
  const file = join(dir, SERVICE_NAME);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, serviceUnit(selfCommand(), env));
  } catch (e) {
    throw new MoatError('usage', `cannot write ${file}: ${errorMessage(e)}`);
  }
  out(`Wrote ${file}\nEnable it with:\n  systemctl --user daemon-reload\n  systemctl --user enable --now ${SERVICE_NAME}\nLogs: journalctl --user -u ${SERVICE_NAME}. To keep it running after you log out: loginctl enable-linger $USER\nProvider keys go in ~/.config/moat/cron.env (NAME=value lines, mode 0600).\n`);
  return 0;
}

export const cronCommands = { cronAdd, cronList, cronRm, cronPause, cronResume, cronRun, cronLogs, cronServe, cronInstallService };
