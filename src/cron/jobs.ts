/**
 * Adding and describing jobs, for `moat cron add` and the model's Schedule
 * tool alike: the input's schema, a checked expression and zone, a name.
 */
import { PERMISSION_MODES } from '../contracts/index.ts';
import { z } from 'zod';
import { once } from '../util/index.ts';
import type { CronJob, CronRepo } from '../store/index.ts';
import { parseSchedule } from './schedule.ts';

const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export const JobInputSchema = once(() =>
  z.strictObject({
    expression: z.string().min(1).describe('Five-field cron expression: minute hour day-of-month month day-of-week, e.g. "0 9 * * 1-5"'),
    task: z.string().min(1).describe('The prompt each run gets, as it would be given to moat -p'),
    name: z.string().regex(NAME, 'a name is lower-case letters, digits, - and _ (up to 64)').optional(),
    timezone: z.string().optional().describe('IANA zone the expression is read in (default: this machine\'s)'),
    cwd: z.string().min(1),
    catchUp: z.boolean().default(false),
    options: z
      .strictObject({
        model: z.string().optional(),
        maxTurns: z.number().int().positive().optional(),
        maxBudgetUsd: z.number().positive().optional(),
        timeoutMs: z.number().int().positive().optional(),
        allowedTools: z.array(z.string()).optional(),
        permissionMode: z.enum(PERMISSION_MODES).optional(),
        worktree: z.boolean().optional(),
      })
      .default({}),
  }),
);
export type JobInput = z.input<ReturnType<typeof JobInputSchema>>;

export class JobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobError';
  }
}

/** `summarise yesterday's commits` → `summarise-yesterdays-commits`, made unique. */
function nameFor(task: string, taken: (n: string) => boolean): string {
  const base =
    task
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .split(/[\s_-]+/)
      .filter(Boolean)
      .slice(0, 4)
      .join('-')
      .slice(0, 40) || 'job';
  if (!taken(base)) return base;
  for (let i = 2; ; i++) if (!taken(`${base}-${i}`)) return `${base}-${i}`;
}

/** Checks and stores a job; its first occurrence is the next one after `now`. Throws JobError or CronExpressionError. */
export function addJob(repo: CronRepo, raw: JobInput, now: number): CronJob {
  const input = JobInputSchema().parse(raw);
  const schedule = parseSchedule(input.expression, input.timezone);
  const name = input.name ?? nameFor(input.task, (n) => repo.get(n) !== undefined);
  const nextDueAt = schedule.next(now);
  if (nextDueAt === undefined) throw new JobError(`"${input.expression}" never comes round (no date matches it)`);
  const job = { name, expression: schedule.expression, timezone: schedule.timezone, task: input.task, cwd: input.cwd, options: input.options, catchUp: input.catchUp, nextDueAt };
  if (!repo.add(job)) throw new JobError(`a job named ${name} exists already (moat cron rm ${name} first, or choose another --name)`);
  const stored = repo.get(name);
  if (stored === undefined) throw new JobError(`${name} was not stored`);
  return stored;
}

/** Resumes a paused job from its next occurrence after now (occurrences while paused are not missed, just not wanted). */
export function resumeJob(repo: CronRepo, name: string, now: number): boolean {
  const job = repo.get(name);
  if (job === undefined) return false;
  return repo.setPaused(name, false, parseSchedule(job.expression, job.timezone).next(now));
}
