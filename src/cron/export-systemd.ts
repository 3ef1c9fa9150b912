/**
 * A job as a systemd user timer and the service it starts: the expression as
 * calendar events in the job's time zone, the run as `moat -p` in the job's
 * folder, the provider keys from moat's cron.env, the timeout as systemd's.
 */
import type { CronJob } from '../store/index.ts';
import { cronFields, type CronFields } from './cron-fields.ts';
import { comments, printArgs, type ExportedFile, type ExportOptions } from './export-options.ts';

const WEEKDAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** `[1,2,3,7]` → `1..3,7`; every value → `*`. */
function list(values: readonly number[], count: number, name: (n: number) => string = (n) => String(n).padStart(2, '0')): string {
  if (values.length === count) return '*';
  const runs: string[] = [];
  for (let i = 0; i < values.length; ) {
    let j = i;
    while (j + 1 < values.length && (values[j + 1] as number) === (values[j] as number) + 1) j++;
    runs.push(j - i >= 2 ? `${name(values[i] as number)}..${name(values[j] as number)}` : values.slice(i, j + 1).map(name).join(','));
    i = j + 1;
  }
  return runs.join(',');
}

/**
 * systemd's calendar events for a cron expression. Cron fires when either restricted day field matches,
 * systemd when both do, so a job naming both gets one event for each.
 */
export function calendarEvents(f: CronFields, zone: string): string[] {
  const time = `${list(f.hours, 24)}:${list(f.minutes, 60)}:00`;
  const months = list(f.months, 12);
  const event = (weekdays: string, days: string) => `${weekdays === '' ? '' : `${weekdays} `}*-${months}-${days} ${time} ${zone}`;
  const weekdays = list(f.weekdays, 7, (n) => WEEKDAY_NAMES[n] as string);
  const days = list(f.days, 31);
  if (f.anyDay && f.anyWeekday) return [event('', '*')];
  if (f.anyDay) return [event(weekdays === '*' ? '' : weekdays, '*')];
  if (f.anyWeekday) return [event('', days)];
  return [event('', days), event(weekdays === '*' ? '' : weekdays, '*')];
}

/** One argument of ExecStart: double-quoted with C escapes, `%` and `$` doubled so systemd expands neither. */
export function execArg(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg) && !arg.includes('%')) return arg;
  const escaped = arg
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t')
    .replace(/%/g, '%%')
    .replace(/\$/g, '$$$$');
  return `"${escaped}"`;
}

/** A path in a setting that takes one path (no quoting): only `%` is special. */
function pathSetting(path: string): string {
  return path.replace(/%/g, '%%');
}

export function systemdUnits(job: CronJob, options: ExportOptions): ExportedFile[] {
  const zone = job.timezone ?? options.localZone;
  const unit = `moat-cron-${job.name}`;
  const argv = [...options.moatCommand, '-p', job.task, '--output-format', 'json', '--cwd', job.cwd, ...printArgs(job)];
  const timeoutSeconds = job.options.timeoutMs === undefined ? undefined : Math.max(1, Math.ceil(job.options.timeoutMs / 1000));
  const header = (kind: string) =>
    comments([
      `moat cron job "${job.name}" (${kind}), exported by moat ${options.version} (moat cron export ${job.name} --to systemd).`,
      `Install: copy ${unit}.service and ${unit}.timer to ~/.config/systemd/user/, then`,
      `  systemctl --user daemon-reload && systemctl --user enable --now ${unit}.timer`,
    ]);
  const service = [
    header('the run'),
    '[Unit]',
    `Description=moat scheduled job ${job.name}`,
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Service]',
    'Type=oneshot',
    `WorkingDirectory=${pathSetting(job.cwd)}`,
    `ExecStart=${argv.map(execArg).join(' ')}`,
    '# Provider keys: ~/.config/moat/cron.env (mode 0600), one NAME=value per line.',
    'EnvironmentFile=-%h/.config/moat/cron.env',
    // -p saves its finished turns on SIGTERM; systemd sends SIGKILL to what is left after TimeoutStopSec.
    `TimeoutStartSec=${timeoutSeconds === undefined ? 'infinity' : String(timeoutSeconds)}`,
    'TimeoutStopSec=10',
    '',
  ].join('\n');
  const timer = [
    header('its schedule'),
    '[Unit]',
    `Description=moat scheduled job ${job.name}: "${job.expression.replace(/%/g, '%%')}" in ${zone}`,
    '',
    '[Timer]',
    ...calendarEvents(cronFields(job.expression), zone).map((e) => `OnCalendar=${e}`),
    // catch-up: a run missed while the machine was off runs once at the next start, as with moat cron serve.
    `Persistent=${job.catchUp ? 'true' : 'false'}`,
    'AccuracySec=1min',
    '',
    '[Install]',
    'WantedBy=timers.target',
    '',
  ].join('\n');
  return [
    { name: `${unit}.service`, text: service },
    { name: `${unit}.timer`, text: timer },
  ];
}
