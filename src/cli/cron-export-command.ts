/** `moat cron export`: the stored jobs written as GitHub Actions workflows, Kubernetes CronJobs or systemd timers. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import { moatPaths } from '../config/index.ts';
import { CronExpressionError, EXPORT_TARGETS, JobError, exportJobs, type ExportTarget, type ExportedFile } from '../cron/index.ts';
import { BUILTIN_PROVIDERS } from '../providers/index.ts';
import { openStore, type CronJob } from '../store/index.ts';
import { errorMessage, MoatError, SAFE_GIT_FLAGS } from '../util/index.ts';
import type { CronExportOptions } from './cron-program.ts';
import { selfCommand } from './cron-command.ts';
import { out } from './write-out.ts';

const DEFAULT_SECRET = 'moat-api-keys';

/** The variable a job's provider reads its key from: `openai/gpt-5.1` → OPENAI_API_KEY; no prefix is Anthropic. */
function apiKeyEnv(model: string | undefined): string {
  const provider = model?.includes('/') === true ? model.slice(0, model.indexOf('/')) : 'anthropic';
  return BUILTIN_PROVIDERS[provider]?.apiKeyEnv ?? 'ANTHROPIC_API_KEY';
}

/** The folder's `origin` remote, read with git (undefined when it has none). */
function originOf(cwd: string): string | undefined {
  // moat's git flags: the repository's fsmonitor and hooks never run, as for every git moat runs.
  const r = Bun.spawnSync(['git', ...SAFE_GIT_FLAGS, '-C', cwd, 'remote', 'get-url', 'origin'], { stdout: 'pipe', stderr: 'ignore' });
  const url = r.stdout.toString().trim();
  return r.exitCode === 0 && url !== '' ? url : undefined;
}

function isTarget(to: string): to is ExportTarget {
  return (EXPORT_TARGETS as readonly string[]).includes(to);
}

function pickJobs(all: readonly CronJob[], name: string | undefined, everyJob: boolean): CronJob[] {
  if (everyJob && name !== undefined) throw new MoatError('usage', 'give a job name or --all, not both');
  if (everyJob) {
    if (all.length === 0) throw new MoatError('not_found', 'no scheduled jobs to export (moat cron add adds one)');
    return [...all];
  }
  if (name === undefined) throw new MoatError('usage', 'which job? moat cron export <name> --to …, or --all');
  const job = all.find((j) => j.name === name);
  if (job === undefined) throw new MoatError('not_found', `no scheduled job named ${name} (moat cron list shows them)`);
  return [job];
}

function write(files: readonly ExportedFile[], dir: string | undefined): void {
  if (dir === undefined) {
    // One file as it is; several each under a `# ==> name <==` line, as `head` prints files.
    if (files.length === 1) out(files[0]?.text ?? '');
    else out(files.map((f) => `# ==> ${f.name} <==\n${f.text}`).join('\n'));
    return;
  }
  const folder = resolve(dir);
  try {
    mkdirSync(folder, { recursive: true });
    for (const f of files) writeFileSync(join(folder, f.name), f.text);
  } catch (e) {
    throw new MoatError('usage', `cannot write into ${folder}: ${errorMessage(e)}`);
  }
  out(`Wrote ${files.map((f) => join(folder, f.name)).join(', ')}\n`);
}

async function cronExport(name: string | undefined, opts: CronExportOptions): Promise<number> {
  if (!isTarget(opts.to)) throw new MoatError('usage', `--to takes ${EXPORT_TARGETS.join(', ')}, not "${opts.to}"`);
  const store = openStore(moatPaths(process.env).dbFile);
  let jobs: CronJob[];
  try {
    jobs = pickJobs(store.cron.list(), name, opts.all === true);
  } finally {
    store.close();
  }
  const files: ExportedFile[] = [];
  try {
    for (const job of jobs) {
      files.push(
        ...exportJobs([job], opts.to, {
          version: pkg.version,
          now: Date.now(),
          localZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
          image: opts.image ?? `moat:${pkg.version}`,
          action: opts.action ?? `moat-agent/moat@v${pkg.version}`,
          repoFor: (cwd) => {
            const url = opts.repo ?? originOf(cwd);
            return url === undefined ? undefined : { url, ...(opts.ref === undefined ? {} : { ref: opts.ref }) };
          },
          secretName: opts.secret ?? DEFAULT_SECRET,
          apiKeyEnv: apiKeyEnv(job.options.model),
          moatCommand: selfCommand(),
        }),
      );
    }
  } catch (e) {
    if (e instanceof CronExpressionError || e instanceof JobError) throw new MoatError('usage', e.message);
    throw e;
  }
  write(files, opts.out);
  return 0;
}

export const cronExportCommands = { cronExport };
