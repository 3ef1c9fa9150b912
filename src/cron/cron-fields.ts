/**
 * A five-field cron expression as sets of numbers, for writing it again in
 * another engine's terms (UTC cron lines, systemd calendar events). Only the
 * portable syntax is read: numbers, names, `*`, ranges, steps and lists;
 * croner's extensions (L, W, #, seconds) have no equivalent elsewhere.
 */
import { CronExpressionError } from './schedule.ts';

export interface CronFields {
  minutes: number[];
  hours: number[];
  /** Days of the month, 1–31. */
  days: number[];
  /** 1–12. */
  months: number[];
  /** 0–6, Sunday 0 (7 is read as 0). */
  weekdays: number[];
  /** `*` (or `?`) in day-of-month / day-of-week: cron's "either day field matches" rule applies only when neither is. */
  anyDay: boolean;
  anyWeekday: boolean;
}

const NICKNAMES: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface Range {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
  namesFrom?: number;
}
const RANGES: readonly Range[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS, namesFrom: 1 },
  { name: 'day of week', min: 0, max: 7, names: WEEKDAYS, namesFrom: 0 },
];

function value(text: string, r: Range, expression: string): number {
  const named = r.names?.indexOf(text.toLowerCase()) ?? -1;
  if (named >= 0) return named + (r.namesFrom ?? 0);
  if (!/^\d+$/.test(text)) throw new CronExpressionError(`"${text}" in the ${r.name} of "${expression}" cannot be exported (only numbers, names, *, ranges, steps and lists can)`);
  const n = Number(text);
  if (n < r.min || n > r.max) throw new CronExpressionError(`${r.name} ${n} is out of range ${r.min}-${r.max} in "${expression}"`);
  return n;
}

function field(text: string, r: Range, expression: string): number[] {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [base = '', stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new CronExpressionError(`bad step "${part}" in the ${r.name} of "${expression}"`);
    let from: number;
    let to: number;
    if (base === '*' || base === '?') {
      from = r.min;
      to = r.name === 'day of week' ? 6 : r.max;
    } else if (base.includes('-')) {
      const [a = '', b = ''] = base.split('-');
      from = value(a, r, expression);
      to = value(b, r, expression);
      if (to < from) throw new CronExpressionError(`range ${base} runs backwards in the ${r.name} of "${expression}"`);
    } else {
      from = value(base, r, expression);
      // `5/15` means 5, 20, 35, 50: from the value to the end of the range.
      to = stepText === undefined ? from : r.max;
    }
    for (let n = from; n <= to; n += step) out.add(r.name === 'day of week' ? n % 7 : n);
  }
  return [...out].sort((a, b) => a - b);
}

/** Throws CronExpressionError for what cannot be said outside croner. */
export function cronFields(expression: string): CronFields {
  const trimmed = expression.trim();
  const text = NICKNAMES[trimmed.toLowerCase()] ?? trimmed;
  const parts = text.split(/\s+/);
  if (parts.length !== 5) throw new CronExpressionError(`"${expression}" has ${parts.length} fields; only five-field expressions (minute hour day-of-month month day-of-week) can be exported`);
  const [minutes, hours, days, months, weekdays] = parts.map((p, i) => field(p, RANGES[i] as Range, expression)) as [number[], number[], number[], number[], number[]];
  const star = (p: string | undefined) => p === '*' || p === '?';
  return { minutes, hours, days, months, weekdays, anyDay: star(parts[2]), anyWeekday: star(parts[4]) };
}

/** `[1,2,3,5]` → `1-3,5`; the whole range → `*`. */
export function cronList(values: readonly number[], min: number, max: number): string {
  if (values.length === max - min + 1) return '*';
  const runs: string[] = [];
  for (let i = 0; i < values.length; ) {
    let j = i;
    while (j + 1 < values.length && (values[j + 1] as number) === (values[j] as number) + 1) j++;
    runs.push(j - i >= 2 ? `${values[i]}-${values[j]}` : values.slice(i, j + 1).join(','));
    i = j + 1;
  }
  return runs.join(',');
}

/** Back to a five-field expression (for UTC lines whose fields were moved). */
export function cronText(f: CronFields): string {
  // A restricted day field that happens to cover every day is still restricted (cron's either-day rule).
  const dayList = (values: readonly number[], min: number, max: number) => {
    const text = cronList(values, min, max);
    return text === '*' ? `${min}-${max}` : text;
  };
  return [
    cronList(f.minutes, 0, 59),
    cronList(f.hours, 0, 23),
    f.anyDay ? '*' : dayList(f.days, 1, 31),
    cronList(f.months, 1, 12),
    f.anyWeekday ? '*' : dayList(f.weekdays, 0, 6),
  ].join(' ');
}
