/** `moat cron export`: each job's definition for an engine teams already run (GitHub Actions, Kubernetes, systemd). */
import type { CronJob } from '../store/index.ts';
import { githubWorkflow } from './export-github.ts';
import { kubernetesCronJob } from './export-kubernetes.ts';
import type { ExportedFile, Exporter, ExportOptions, ExportTarget } from './export-options.ts';
import { systemdUnits } from './export-systemd.ts';

const EXPORTERS: Readonly<Record<ExportTarget, Exporter>> = {
  'github-actions': githubWorkflow,
  kubernetes: kubernetesCronJob,
  systemd: systemdUnits,
};

/** Throws CronExpressionError (an expression other engines cannot say) or JobError (no repository to clone). */
export function exportJobs(jobs: readonly CronJob[], target: ExportTarget, options: ExportOptions): ExportedFile[] {
  return jobs.flatMap((job) => EXPORTERS[target](job, options));
}
