/**
 * A job as a GitHub Actions workflow: `on.schedule` in UTC (with the caveat
 * for the job's time zone), a manual trigger, one run at a time, and the moat
 * action running the task in the repository's checkout.
 */
import type { CronJob } from '../store/index.ts';
import { comments, type ExportedFile, type ExportOptions } from './export-options.ts';
import { utcSchedule } from './utc-schedule.ts';

export function githubWorkflow(job: CronJob, options: ExportOptions): ExportedFile[] {
  const zone = job.timezone ?? options.localZone;
  const schedule = utcSchedule(job.expression, zone, options.now);
  const o = job.options;
  const inputs: Record<string, string> = { prompt: job.task };
  if (o.model !== undefined) inputs['model'] = o.model;
  if (o.permissionMode !== undefined) inputs['permission_mode'] = o.permissionMode;
  if (o.allowedTools !== undefined && o.allowedTools.length > 0) inputs['allowed_tools'] = o.allowedTools.join('\n');
  if (o.maxTurns !== undefined) inputs['max_turns'] = String(o.maxTurns);
  if (o.maxBudgetUsd !== undefined) inputs['max_budget_usd'] = String(o.maxBudgetUsd);
  if (o.worktree === true) inputs['worktree'] = 'true';
  const run: Record<string, unknown> = {
    'runs-on': 'ubuntu-latest',
    ...(o.timeoutMs === undefined ? {} : { 'timeout-minutes': Math.max(1, Math.ceil(o.timeoutMs / 60_000)) }),
    steps: [
      { uses: 'actions/checkout@v4', ...(o.worktree === true ? { with: { 'fetch-depth': 0 } } : {}) },
      {
        id: 'moat',
        uses: options.action,
        with: inputs,
        env: { [options.apiKeyEnv]: `\${{ secrets.${options.apiKeyEnv} }}` },
      },
    ],
  };
  const workflow = {
    name: `moat: ${job.name}`,
    on: { schedule: schedule.lines.map((cron) => ({ cron })), workflow_dispatch: {} },
    permissions: { contents: 'read' },
    // A run still going when the next is due: the next waits (moat cron serve skips it; GitHub can only queue or cancel).
    concurrency: { group: `moat-cron-${job.name}`, 'cancel-in-progress': false },
    jobs: { run },
  };
  const header = comments([
    `moat cron job "${job.name}", exported by moat ${options.version} (moat cron export ${job.name} --to github-actions).`,
    `Put it in the repository of ${job.cwd} as .github/workflows/moat-${job.name}.yml, and the`,
    `provider key as the repository secret ${options.apiKeyEnv}.`,
    '',
    ...schedule.caveat,
    ...(job.catchUp ? ['', 'catch-up: GitHub does not run schedules missed while Actions was unavailable; this job asked for it.'] : []),
    ...(job.paused ? ['', 'The job is paused in moat: disable this workflow (gh workflow disable) to keep it so.'] : []),
  ]);
  return [{ name: `moat-${job.name}.yml`, text: `${header}\n${Bun.YAML.stringify(workflow, null, 2)}\n` }];
}
