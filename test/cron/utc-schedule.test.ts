/** Cron expressions moved to UTC (GitHub Actions) and to systemd calendar events, checked against croner and systemd's own reading. */
import { describe, expect, test } from 'bun:test';
import { Cron } from 'croner';
import { calendarEvents } from '../../src/cron/export-systemd.ts';
import { cronFields } from '../../src/cron/cron-fields.ts';
import { utcSchedule, zoneOffsetMinutes } from '../../src/cron/utc-schedule.ts';
import { CronExpressionError } from '../../src/cron/index.ts';

const NOV = Date.parse('2026-11-28T12:00:00Z');
const JULY = Date.parse('2026-07-10T12:00:00Z');

/** Occurrences of `expression` in `zone` from `from` up to `to`, as epoch ms. */
function occurrences(expression: string, zone: string, from: number, to: number): number[] {
  const cron = new Cron(expression, { paused: true, timezone: zone });
  const out: number[] = [];
  for (let at = cron.nextRun(new Date(from)); at !== null && at.getTime() < to; at = cron.nextRun(at)) out.push(at.getTime());
  return out;
}

describe('utcSchedule', () => {
  test('Berlin in winter: 9:00 on weekdays is 8:00 UTC, with the March change in the caveat', () => {
    const s = utcSchedule('0 9 * * 1-5', 'Europe/Berlin', NOV);
    expect(s.lines).toEqual(['0 8 * * 1-5']);
    expect(s.caveat.join(' ')).toContain('for Europe/Berlin at UTC+01:00, its offset on 2026-11-28.');
    expect(s.caveat.join(' ')).toContain('From 2027-03-28 Europe/Berlin is UTC+02:00: these runs then start 60 minutes later by the local clock');
  });

  test('times that fall on the day before in UTC move their weekdays with them, and a split gives two lines', () => {
    expect(utcSchedule('30 0 * * 1-5', 'Europe/Berlin', NOV).lines).toEqual(['30 23 * * 0-4']);
    expect(utcSchedule('0 0,9 * * 1', 'Europe/Berlin', NOV).lines).toEqual(['0 23 * * 0', '0 8 * * 1']);
    // New York in summer is UTC-4: Friday 22:00 is Saturday 02:00 UTC.
    expect(utcSchedule('0 22 * * 5', 'America/New_York', JULY).lines).toEqual(['0 2 * * 6']);
  });

  test('half-hour zones move the minutes; zones without DST get no change note', () => {
    const s = utcSchedule('0 9 * * *', 'Asia/Kolkata', NOV);
    expect(s.lines).toEqual(['30 3 * * *']);
    expect(s.caveat.join(' ')).not.toContain('From ');
    expect(utcSchedule('*/15 * * * *', 'UTC', NOV)).toEqual({ lines: ['*/15 * * * *'.replace('*/15', '0,15,30,45')], caveat: ['Schedule "*/15 * * * *" in UTC, which is UTC all year: GitHub reads on.schedule in UTC.'] });
  });

  test('what cannot be said exactly in UTC is refused, naming why', () => {
    expect(() => utcSchedule('0 0 1 * *', 'Europe/Berlin', NOV)).toThrow(/days of the month at the month's edge/);
    expect(() => utcSchedule('0 0 * 1 *', 'Europe/Berlin', NOV)).toThrow(/names months/);
    expect(() => utcSchedule('0 9 L * *', 'Europe/Berlin', NOV)).toThrow(CronExpressionError);
    expect(() => utcSchedule('0 0 9 * * *', 'UTC', NOV)).toThrow(/has 6 fields; only five-field/);
  });

  // The UTC lines fire at exactly the job's instants until the zone's offset changes.
  const cases: [string, string, number][] = [
    ['0 9 * * 1-5', 'Europe/Berlin', NOV],
    ['15,45 0-2,23 * * *', 'Europe/Berlin', NOV],
    ['0 0 * * 0,6', 'America/Los_Angeles', NOV],
    ['10 18 2-20 * *', 'Asia/Tokyo', NOV],
    ['*/20 21-23 * * 1,3', 'Australia/Adelaide', JULY],
    ['0 12 * * 1-5', 'America/New_York', JULY],
    ['@daily', 'Asia/Kolkata', NOV],
  ];
  for (const [expression, zone, now] of cases) {
    test(`"${expression}" in ${zone}: the same instants as croner reads in the zone`, () => {
      const end = now + 20 * 86_400_000;
      // Stay inside the current offset: stop at the first change.
      let until = now;
      while (until < end && zoneOffsetMinutes(zone, until) === zoneOffsetMinutes(zone, now)) until += 3_600_000;
      const want = occurrences(expression, zone, now, until);
      const got = [...new Set(utcSchedule(expression, zone, now).lines.flatMap((l) => occurrences(l, 'UTC', now, until)))].sort((a, b) => a - b);
      expect(want.length).toBeGreaterThan(0);
      expect(got).toEqual(want);
    });
  }
});

const hasSystemdAnalyze = Bun.which('systemd-analyze') !== null;
if (!hasSystemdAnalyze) console.log('skipped: systemd-analyze is not installed, the calendar events are not compared with systemd\'s reading');

/** systemd's own next elapses of a calendar event after `base`, as epoch ms. */
function systemdElapses(event: string, base: number, n: number): number[] {
  const r = Bun.spawnSync(['systemd-analyze', 'calendar', `--iterations=${n}`, `--base-time=@${Math.floor(base / 1000)}`, event], { stdout: 'pipe', stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`systemd-analyze calendar "${event}": ${r.stderr.toString()}`);
  return [...r.stdout.toString().matchAll(/(?:Next elapse|Iter\. #\d+): \w+ (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC/g)].map((m) => Date.parse(`${(m[1] ?? '').replace(' ', 'T')}Z`));
}

describe.skipIf(!hasSystemdAnalyze)('calendarEvents, read by systemd-analyze calendar', () => {
  const cases: [string, string][] = [
    ['0 9 * * 1-5', 'Europe/Berlin'],
    ['*/15 8-17 * * *', 'UTC'],
    ['30 2 1,15 * *', 'America/New_York'],
    ['0 6 * 1-3,10 0', 'Asia/Tokyo'],
    // Both day fields named: cron runs on either (the 13th, or any Friday).
    ['0 12 13 * 5', 'Europe/Berlin'],
    ['@hourly', 'UTC'],
  ];
  for (const [expression, zone] of cases) {
    test(`"${expression}" in ${zone}: systemd's next 12 elapses are croner's`, () => {
      const events = calendarEvents(cronFields(expression), zone);
      const got = [...new Set(events.flatMap((e) => systemdElapses(e, NOV, 12)))].sort((a, b) => a - b).slice(0, 12);
      const want = occurrences(expression, zone, NOV, NOV + 400 * 86_400_000).slice(0, 12);
      expect(got).toEqual(want);
    });
  }
});
