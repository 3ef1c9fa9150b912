/**
 * Cron expressions, parsed by croner: the next occurrence after an instant,
 * in a job's time zone. A bad expression or zone is a CronExpressionError
 * whose message names the field.
 */
import { Cron } from 'croner';

export class CronExpressionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CronExpressionError';
  }
}

export interface Schedule {
  expression: string;
  /** The IANA zone it is read in (canonical spelling); undefined: the machine's local time. */
  timezone: string | undefined;
  /** The first occurrence strictly after `after` (epoch ms), or undefined when there is none. */
  next(after: number): number | undefined;
}

/** `Europe/berlin` → `Europe/Berlin`; an unknown zone is an error. */
function canonicalZone(zone: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    throw new CronExpressionError(`unknown time zone "${zone}" (an IANA name such as Europe/Berlin or America/New_York)`);
  }
}

/** croner says "CronPattern: Invalid value for minute: 61"; users get "invalid minute: 61 in "61 * * * *"". */
function explain(expression: string, e: unknown): CronExpressionError {
  const raw = e instanceof Error ? e.message : String(e);
  const field = /Invalid value for (\w+): (.*)$/.exec(raw);
  if (field !== null) {
    const name = field[1] === 'dayOfWeek' ? 'day of week' : field[1] === 'dayOfMonth' ? 'day of month' : field[1];
    return new CronExpressionError(`invalid ${name} "${field[2]}" in cron expression "${expression}" (fields: minute hour day-of-month month day-of-week)`);
  }
  const cleaned = raw.replace(/^CronPattern: /, '');
  return new CronExpressionError(`invalid cron expression "${expression}": ${cleaned} (fields: minute hour day-of-month month day-of-week)`);
}

export function parseSchedule(expression: string, timezone?: string): Schedule {
  const zone = timezone === undefined ? undefined : canonicalZone(timezone);
  let cron: Cron;
  try {
    cron = new Cron(expression.trim(), { paused: true, ...(zone === undefined ? {} : { timezone: zone }) });
  } catch (e) {
    throw explain(expression, e);
  }
  return {
    expression: expression.trim(),
    timezone: zone,
    next: (after) => cron.nextRun(new Date(after))?.getTime(),
  };
}
