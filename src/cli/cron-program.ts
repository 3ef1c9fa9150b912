/** The `moat cron …` subcommands: parsing only, each action calls its handler. */
import { PERMISSION_MODES } from '../contracts/index.ts';
import { Option, type Command } from 'commander';

export interface CronAddOptions {
  name?: string;
  cwd?: string;
  worktree?: boolean;
  model?: string;
  maxTurns?: string;
  maxBudgetUsd?: string;
  timeout?: string;
  allowedTools?: string[];
  permissionMode?: string;
  catchUp?: boolean;
  tz?: string;
}

export interface CronExportOptions {
  all?: boolean;
  to: string;
  out?: string;
  image?: string;
  action?: string;
  repo?: string;
  ref?: string;
  secret?: string;
}

export interface CronHandlers {
  cronAdd(expression: string, task: string, opts: CronAddOptions): Promise<number>;
  cronList(opts: { json?: boolean }): Promise<number>;
  cronRm(name: string): Promise<number>;
  cronPause(name: string): Promise<number>;
  cronResume(name: string): Promise<number>;
  cronRun(name: string): Promise<number>;
  cronLogs(name: string, opts: { limit?: string }): Promise<number>;
  cronServe(): Promise<number>;
  cronInstallService(): Promise<number>;
  cronExport(name: string | undefined, opts: CronExportOptions): Promise<number>;
}

export function registerCronCommand(program: Command, handlers: CronHandlers, setExit: (code: number) => void): void {
  const cron = program.command('cron').description('scheduled jobs: each run an unattended moat -p session');
  cron
    .command('add <expression> <task>')
    .description('schedule a task: moat cron add "0 9 * * 1-5" "summarise yesterday\'s commits"')
    .option('--name <name>', 'its name (default: from the task)')
    .option('--cwd <dir>', 'folder the runs work in (default: the current folder)')
    .option('--worktree', 'each run in a new git worktree on its own branch')
    .option('--model <model>', 'model for its runs')
    .option('--max-turns <n>', 'stop a run after this many model turns')
    .option('--max-budget-usd <usd>', 'stop a run once it has cost this much')
    .option('--timeout <duration>', 'stop a run after this long (30s, 10m, 1h); recorded as timed out')
    .option('--allowedTools <rules...>', 'allow rules for its runs (a run never prompts: the rest is denied)')
    .addOption(new Option('--permission-mode <mode>', 'permission mode for its runs').choices(PERMISSION_MODES))
    .option('--catch-up', 'occurrences missed while no scheduler ran: run the latest once (default: skip them)')
    .option('--tz <zone>', "IANA time zone the expression is read in (default: this machine's)")
    .action(async (expression: string, task: string, opts: CronAddOptions) => setExit(await handlers.cronAdd(expression, task, opts)));
  cron
    .command('list')
    .description('jobs with their next run, last run and its result')
    .option('--json', 'as JSON')
    .action(async (opts: { json?: boolean }) => setExit(await handlers.cronList(opts)));
  cron
    .command('rm <name>')
    .description('remove a job and its run records (the sessions stay)')
    .action(async (name: string) => setExit(await handlers.cronRm(name)));
  cron
    .command('pause <name>')
    .description('stop scheduling a job until resumed')
    .action(async (name: string) => setExit(await handlers.cronPause(name)));
  cron
    .command('resume <name>')
    .description('schedule a paused job again, from its next occurrence')
    .action(async (name: string) => setExit(await handlers.cronResume(name)));
  cron
    .command('run <name>')
    .description('run a job now, in the foreground, recorded like a scheduled run')
    .action(async (name: string) => setExit(await handlers.cronRun(name)));
  cron
    .command('logs <name>')
    .description("a job's runs, newest first, each with its session (moat sessions show <id>)")
    .option('--limit <n>', 'how many (default 20)')
    .action(async (name: string, opts: { limit?: string }) => setExit(await handlers.cronLogs(name, opts)));
  cron
    .command('serve')
    .description('run the scheduler in the foreground (one per database)')
    .action(async () => setExit(await handlers.cronServe()));
  cron
    .command('install-service')
    .description('write a systemd user unit that runs moat cron serve, and say how to enable it')
    .action(async () => setExit(await handlers.cronInstallService()));
  cron
    .command('export [name]')
    .description("write a job's definition for GitHub Actions, Kubernetes or systemd: moat cron export nightly --to kubernetes")
    .option('--all', 'every job')
    .addOption(new Option('--to <engine>', 'the engine').choices(['github-actions', 'kubernetes', 'systemd']).makeOptionMandatory())
    .option('--out <dir>', 'write the files into this folder (default: print them)')
    .option('--image <ref>', 'kubernetes: the moat image the CronJob runs (default: moat:<version>, as bun run image tags it)')
    .option('--action <ref>', 'github-actions: the moat action the workflow uses (default: moat-agent/moat@v<version>)')
    .option('--repo <url>', "kubernetes: the git repository to clone (default: the job folder's origin remote)")
    .option('--ref <branch>', 'kubernetes: the branch or tag to clone (default: the remote\'s default branch)')
    .option('--secret <name>', 'kubernetes: the Secret holding the provider key (default: moat-api-keys)')
    .action(async (name: string | undefined, opts: CronExportOptions) => setExit(await handlers.cronExport(name, opts)));
}
