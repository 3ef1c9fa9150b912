/**
 * A job's run as its own `moat -p` process: isolated from the scheduler (a
 * crash or a hung tool takes only that run), saved as a session like any -p
 * run, never prompting (-p denies what would ask). Stopping it sends SIGTERM,
 * which -p answers by saving the finished turns and exiting, then SIGKILL to
 * the whole process group after a grace period.
 */
import { runOwnProcess } from '../sandbox/index.ts';
import type { CronJob } from '../store/index.ts';
import type { JobRunner, RunOutcome } from './scheduler.ts';

const KILL_GRACE_MS = 5_000;
const SUMMARY_CHARS = 500;

/** The -p arguments for a job's options. */
export function runArgs(job: CronJob): string[] {
  const o = job.options;
  const args = ['-p', job.task, '--output-format', 'json', '--cwd', job.cwd];
  if (o.model !== undefined) args.push('--model', o.model);
  if (o.maxTurns !== undefined) args.push('--max-turns', String(o.maxTurns));
  if (o.maxBudgetUsd !== undefined) args.push('--max-budget-usd', String(o.maxBudgetUsd));
  if (o.permissionMode !== undefined) args.push('--permission-mode', o.permissionMode);
  if (o.allowedTools !== undefined && o.allowedTools.length > 0) args.push('--allowedTools', ...o.allowedTools);
  if (o.worktree === true) args.push('--worktree');
  return args;
}

interface ResultLine {
  session_id?: string;
  result?: string;
  is_error?: boolean;
  subtype?: string;
  total_cost_usd?: number;
  errors?: string[];
}

function outcomeOf(code: number | null, stdout: string, stderr: string): RunOutcome {
  let r: ResultLine | undefined;
  try {
    r = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ResultLine;
  } catch {
    r = undefined;
  }
  const failure = stderr.trim().split('\n').at(-1) ?? '';
  if (r === undefined) return { status: 'error', summary: `moat -p exited ${code ?? 'on a signal'}${failure === '' ? '' : `: ${failure}`}` };
  const ok = code === 0 && r.is_error !== true;
  const text = ok ? (r.result ?? '') : (r.errors?.[0] ?? `${r.subtype ?? 'error'} (exit ${code})`);
  return {
    status: ok ? 'ok' : 'error',
    ...(r.session_id === undefined ? {} : { sessionId: r.session_id }),
    ...(r.total_cost_usd === undefined ? {} : { costUsd: r.total_cost_usd }),
    summary: text.slice(0, SUMMARY_CHARS),
  };
}

function definedOnly(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** `command`: how to start moat itself (the binary, or bun with the entry file in development). */
export function processRunner(command: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): JobRunner {
  return async (job, signal) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const r = await runOwnProcess([...command, ...runArgs(job)], definedOnly(env), {
      cwd: job.cwd,
      killGraceMs: KILL_GRACE_MS,
      signal,
      onStdout: (chunk) => out.push(chunk),
      onStderr: (chunk) => err.push(chunk),
      // -p ends its own children when it exits; the group is ended only when the run is stopped.
      endGroupOnExit: false,
    });
    return outcomeOf(r.exitCode, Buffer.concat(out).toString('utf8'), Buffer.concat(err).toString('utf8'));
  };
}
