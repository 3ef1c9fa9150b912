/**
 * A job's schedule moved to UTC, for engines that read cron in UTC only
 * (GitHub Actions' `on.schedule`): the zone's offset today, the lines that
 * say the same times in UTC, and the caveat for its next daylight-saving
 * change, which a fixed UTC schedule cannot follow.
 */
import { cronFields, cronText, type CronFields } from './cron-fields.ts';
import { CronExpressionError } from './schedule.ts';

const DAY_MINUTES = 24 * 60;
const DAY_MS = 86_400_000;

const formats = new Map<string, Intl.DateTimeFormat>();

/** Minutes the zone's wall clock is ahead of UTC at `at`. */
export function zoneOffsetMinutes(zone: string, at: number): number {
  let format = formats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric' });
    formats.set(zone, format);
  }
  const parts = format.formatToParts(new Date(at));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'));
  return Math.round((wall - Math.floor(at / 60_000) * 60_000) / 60_000);
}

/** `+01:00`, `-05:30`. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The first instant within a year after `from` at which the zone's offset differs from its offset at `from`. */
function nextOffsetChange(zone: string, from: number): { at: number; offset: number } | undefined {
  const offset = zoneOffsetMinutes(zone, from);
  let day = from;
  for (let i = 0; i < 370 && zoneOffsetMinutes(zone, day + DAY_MS) === offset; i++) day += DAY_MS;
  if (zoneOffsetMinutes(zone, day + DAY_MS) === offset) return undefined;
  // Narrow the day down to the hour (offsets change on the hour or half-hour; the date is what the note shows).
  let lo = day;
  let hi = day + DAY_MS;
  while (hi - lo > 60_000) {
    const mid = Math.floor((lo + hi) / 2);
    if (zoneOffsetMinutes(zone, mid) === offset) lo = mid;
    else hi = mid;
  }
  return { at: hi, offset: zoneOffsetMinutes(zone, hi) };
}

function shiftDays(f: CronFields, shift: number, expression: string): Pick<CronFields, 'days' | 'weekdays' | 'months'> {
  if (shift === 0) return f;
  if (f.months.length !== 12) {
    throw new CronExpressionError(`"${expression}" names months and its times fall on another day in UTC; it cannot be said exactly in UTC (give the job a time that stays on the same UTC day, or --tz UTC)`);
  }
  if (!f.anyDay && f.days.some((d) => (shift < 0 ? d === 1 : d >= 28))) {
    throw new CronExpressionError(`"${expression}" names days of the month at the month's edge and its times fall on another day in UTC; it cannot be said exactly in UTC (choose another time, or --tz UTC)`);
  }
  return {
    months: f.months,
    days: f.anyDay ? f.days : f.days.map((d) => d + shift),
    weekdays: f.anyWeekday ? f.weekdays : f.weekdays.map((w) => (w + shift + 7) % 7).sort((a, b) => a - b),
  };
}

export interface UtcSchedule {
  /** Cron lines in UTC that together fire at the job's times (at today's offset). */
  lines: string[];
  /** Comment lines: what was converted, and when the conversion stops being right. */
  caveat: string[];
}

export function utcSchedule(expression: string, zone: string, now: number): UtcSchedule {
  const f = cronFields(expression);
  const offset = zoneOffsetMinutes(zone, now);
  const change = nextOffsetChange(zone, now);
  if (offset === 0 && change === undefined) {
    return { lines: [cronText(f)], caveat: [`Schedule "${expression}" in ${zone}, which is UTC all year: GitHub reads on.schedule in UTC.`] };
  }
  // shift (-1, 0, +1 day) → UTC hour → its minutes.
  const byShift = new Map<number, Map<number, number[]>>();
  for (const h of f.hours) {
    for (const m of f.minutes) {
      const total = h * 60 + m - offset;
      const shift = Math.floor(total / DAY_MINUTES);
      const utc = total - shift * DAY_MINUTES;
      const hours = byShift.get(shift) ?? new Map<number, number[]>();
      byShift.set(shift, hours);
      const minutes = hours.get(Math.floor(utc / 60)) ?? [];
      hours.set(Math.floor(utc / 60), [...minutes, utc % 60]);
    }
  }
  const lines: string[] = [];
  for (const shift of [...byShift.keys()].sort((a, b) => a - b)) {
    const days = shiftDays(f, shift, expression);
    // Hours with the same minutes share a line.
    const groups = new Map<string, { minutes: number[]; hours: number[] }>();
    for (const [hour, minutes] of [...(byShift.get(shift) ?? new Map<number, number[]>())].sort((a, b) => a[0] - b[0])) {
      const sorted = [...minutes].sort((a, b) => a - b);
      const key = sorted.join(',');
      const group = groups.get(key) ?? { minutes: sorted, hours: [] };
      group.hours.push(hour);
      groups.set(key, group);
    }
    for (const g of groups.values()) lines.push(cronText({ ...f, ...days, minutes: g.minutes, hours: g.hours }));
  }
  const today = new Date(now).toISOString().slice(0, 10);
  const caveat = [
    `Schedule "${expression}" in ${zone}. GitHub reads on.schedule in UTC only, so it is written here`,
    `for ${zone} at ${formatOffset(offset)}, its offset on ${today}.`,
  ];
  if (change !== undefined) {
    const diff = change.offset - offset;
    const when = new Date(change.at).toISOString().slice(0, 10);
    caveat.push(
      `From ${when} ${zone} is ${formatOffset(change.offset)}: these runs then start ${Math.abs(diff)} minutes ${diff > 0 ? 'later' : 'earlier'} by the local clock`,
      `until the offset changes back, or until this file is exported again.`,
    );
  }
  return { lines, caveat };
}
