/**
 * The model's Schedule tool: create, list and delete scheduled jobs. Creating
 * a job starts future runs nobody watches, so it is an `execute` call: it asks
 * in the TUI in every mode but bypassPermissions, and -p denies it unless a
 * rule allows `Schedule` (a job's own runs never get it: they cannot prompt).
 */
import { addJob } from './jobs.ts';
import type { CronRepo } from '../store/index.ts';
import { defineTool, ToolError, type AnyTool } from '../tools/index.ts';
import { errorMessage, inputJsonSchemaOf } from '../util/index.ts';
import { scheduleInput } from './schedule-input.ts';

export const SCHEDULE_TOOL = 'Schedule';

function describeNext(ms: number | undefined): string {
  return ms === undefined ? 'never' : new Date(ms).toISOString();
}

export function scheduleTool(deps: { repo: () => CronRepo; cwd: string; now?: () => number }): AnyTool {
  const now = deps.now ?? Date.now;
  return defineTool({
    name: SCHEDULE_TOOL,
    description:
      'Schedule a task to run later on a cron schedule, as its own unattended moat -p session in this folder (moat cron serve must be running for it to fire), list the scheduled jobs, or delete one. Each run is saved as a session; `moat cron logs <name>` shows them.',
    get inputSchema() {
      return scheduleInput();
    },
    jsonSchema: inputJsonSchemaOf('cron/schedule-input.ts', 'scheduleInput'),
    effect: 'execute',
    intent: (input) => ({
      ruleName: SCHEDULE_TOOL,
      ...(input.action === 'list' ? {} : { subject: input.action === 'create' ? input.cron : input.name }),
      paths: [],
      summary: input.action === 'create' ? `schedule "${input.task.slice(0, 60)}" at ${input.cron}` : input.action === 'delete' ? `delete scheduled job ${input.name}` : 'list scheduled jobs',
    }),
    execute: async (input) => {
      const repo = deps.repo();
      switch (input.action) {
        case 'create': {
          try {

            const job = addJob(repo, { expression: input.cron, task: input.task, cwd: deps.cwd, ...(input.name === undefined ? {} : { name: input.name }), ...(input.timezone === undefined ? {} : { timezone: input.timezone }) }, now());
            return { content: `Scheduled ${job.name}: "${job.expression}"${job.timezone === undefined ? '' : ` (${job.timezone})`}, next run ${describeNext(job.nextDueAt)}. It runs while moat cron serve is running.` };
          } catch (e) {
            throw new ToolError(errorMessage(e));
          }
        }
        case 'list': {
          const jobs = repo.list();
          if (jobs.length === 0) return { content: 'No scheduled jobs.' };
          return { content: jobs.map((j) => `${j.name}  "${j.expression}"${j.paused ? ' (paused)' : ''}  next ${describeNext(j.nextDueAt)}  in ${j.cwd}: ${j.task.slice(0, 80)}`).join('\n') };
        }
        case 'delete': {
          if (!repo.remove(input.name)) throw new ToolError(`No scheduled job is named ${input.name}. List them with action "list".`);
          return { content: `Deleted ${input.name}.` };
        }
      }
    },
  }) as unknown as AnyTool;
}
