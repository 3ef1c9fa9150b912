/** What `moat cron export` needs besides the job: where the definitions point (image, action, repository, secret) and the clock. */
import type { CronJob } from '../store/index.ts';

export const EXPORT_TARGETS = ['github-actions', 'kubernetes', 'systemd'] as const;
export type ExportTarget = (typeof EXPORT_TARGETS)[number];

export interface ExportOptions {
  /** moat's version: the action's and the image's default tag. */
  version: string;
  /** Epoch ms the UTC conversion and its caveat are computed for. */
  now: number;
  /** The zone of jobs added without --tz (the exporting machine's). */
  localZone: string;
  /** The container image the Kubernetes CronJob runs. */
  image: string;
  /** The action a workflow uses, `owner/repo@ref`. */
  action: string;
  /** The git repository the CronJob's init container clones for a job's folder (and the branch or tag); undefined when it has none. */
  repoFor(cwd: string): { url: string; ref?: string } | undefined;
  /** The Kubernetes Secret (or GitHub secret) holding the provider key. */
  secretName: string;
  /** The environment variable the job's provider reads its key from. */
  apiKeyEnv: string;
  /** How systemd starts moat: the binary's absolute path (and the entry file in development). */
  moatCommand: readonly string[];
}

export interface ExportedFile {
  /** A file name (no folders): `moat-nightly.yml`, `moat-cron-nightly.timer`. */
  name: string;
  text: string;
}

export type Exporter = (job: CronJob, options: ExportOptions) => ExportedFile[];

/** The job's options as -p arguments, without the task and the folder (each engine places those itself). */
export function printArgs(job: CronJob): string[] {
  const o = job.options;
  const args: string[] = [];
  if (o.model !== undefined) args.push('--model', o.model);
  if (o.maxTurns !== undefined) args.push('--max-turns', String(o.maxTurns));
  if (o.maxBudgetUsd !== undefined) args.push('--max-budget-usd', String(o.maxBudgetUsd));
  if (o.permissionMode !== undefined) args.push('--permission-mode', o.permissionMode);
  if (o.allowedTools !== undefined && o.allowedTools.length > 0) args.push('--allowedTools', ...o.allowedTools);
  if (o.worktree === true) args.push('--worktree');
  return args;
}

/** A header of `# ` comment lines. */
export function comments(lines: readonly string[]): string {
  return lines.map((l) => (l === '' ? '#' : `# ${l}`)).join('\n');
}
