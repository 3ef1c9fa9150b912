/**
 * A job as a Kubernetes CronJob running the moat image: the schedule in the
 * job's own time zone (`spec.timeZone`), one run at a time, the provider key
 * from a Secret, resource requests, and the working folder cloned by an init
 * container into a volume both containers share.
 */
import type { CronJob } from '../store/index.ts';
import { comments, printArgs, type ExportedFile, type ExportOptions } from './export-options.ts';
import { JobError } from './jobs.ts';

/** The image's user (scripts/image.ts): the pod runs as it, and the volume is made writable for it. */
const IMAGE_UID = 1000;
/** A run that cannot start within this long after its time is skipped, as moat cron serve skips missed runs. */
const STARTING_DEADLINE_SECONDS = 300;

export function kubernetesCronJob(job: CronJob, options: ExportOptions): ExportedFile[] {
  const repo = options.repoFor(job.cwd);
  if (repo === undefined) throw new JobError(`${job.cwd} has no git remote to clone in the cluster: give one with --repo <url>`);
  const o = job.options;
  const clone = ['clone', '--depth', '1', ...(repo.ref === undefined ? [] : ['--branch', repo.ref]), repo.url, '/workspace'];
  const podSpec = {
    restartPolicy: 'Never',
    securityContext: { runAsNonRoot: true, runAsUser: IMAGE_UID, runAsGroup: IMAGE_UID, fsGroup: IMAGE_UID },
    initContainers: [
      {
        name: 'clone',
        image: options.image,
        command: ['git'],
        args: clone,
        volumeMounts: [{ name: 'workspace', mountPath: '/workspace' }],
        resources: { requests: { cpu: '100m', memory: '128Mi' } },
      },
    ],
    containers: [
      {
        name: 'moat',
        image: options.image,
        args: ['-p', job.task, '--output-format', 'json', ...printArgs(job)],
        workingDir: '/workspace',
        env: [{ name: options.apiKeyEnv, valueFrom: { secretKeyRef: { name: options.secretName, key: options.apiKeyEnv } } }],
        resources: { requests: { cpu: '500m', memory: '512Mi' }, limits: { memory: '2Gi' } },
        volumeMounts: [{ name: 'workspace', mountPath: '/workspace' }],
      },
    ],
    volumes: [{ name: 'workspace', emptyDir: {} }],
  };
  const cronJob = {
    apiVersion: 'batch/v1',
    kind: 'CronJob',
    metadata: {
      name: `moat-${job.name.replace(/_/g, '-')}`.slice(0, 52),
      labels: { 'app.kubernetes.io/name': 'moat', 'app.kubernetes.io/component': 'cron', 'app.kubernetes.io/instance': job.name.replace(/_/g, '-') },
    },
    spec: {
      schedule: job.expression,
      timeZone: job.timezone ?? options.localZone,
      concurrencyPolicy: 'Forbid',
      ...(job.catchUp ? {} : { startingDeadlineSeconds: STARTING_DEADLINE_SECONDS }),
      ...(job.paused ? { suspend: true } : {}),
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 3,
      jobTemplate: {
        spec: {
          backoffLimit: 0,
          ...(o.timeoutMs === undefined ? {} : { activeDeadlineSeconds: Math.max(1, Math.ceil(o.timeoutMs / 1000)) }),
          template: { metadata: { labels: { 'app.kubernetes.io/name': 'moat' } }, spec: podSpec },
        },
      },
    },
  };
  const header = comments([
    `moat cron job "${job.name}", exported by moat ${options.version} (moat cron export ${job.name} --to kubernetes).`,
    `Runs "${job.expression}" in ${cronJob.spec.timeZone} (Kubernetes 1.27+ reads spec.timeZone).`,
    `The provider key comes from the Secret ${options.secretName}:`,
    `  kubectl create secret generic ${options.secretName} --from-literal=${options.apiKeyEnv}=...`,
    `The image is scripts/image.ts's (bun run image), pushed where the cluster pulls from.`,
    `A private repository needs credentials for the clone (e.g. a token in the URL from a Secret).`,
    `moat's OS sandbox (bubblewrap) needs user namespaces and an unmasked /proc in the pod`,
    `(securityContext.procMount: Unmasked with hostUsers: false, where the cluster allows it);`,
    `without them it reports the sandbox off and -p denies Bash calls instead of running them unsandboxed.`,
    ...(o.worktree === true ? ['--worktree: the branch lives in the pod\'s clone and goes with it unless the task pushes it.'] : []),
  ]);
  return [{ name: `moat-${job.name}.yaml`, text: `${header}\n${Bun.YAML.stringify(cronJob, null, 2)}\n` }];
}
