/**
 * `moat cron export`'s definitions: golden files for each engine, each one
 * validated the way its engine would (GitHub's workflow schema, Kubernetes'
 * OpenAPI schemas, systemd-analyze verify), and hostile tasks kept as data.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { CronJob as K8sCronJob } from 'kubernetes-models/batch/v1/CronJob';
import { exportJobs, type ExportOptions, type ExportTarget } from '../../src/cron/index.ts';
import { execArg } from '../../src/cron/export-systemd.ts';
import type { CronJob } from '../../src/store/index.ts';
import { tempDir } from '../support/temp.ts';

const GOLDEN = join(import.meta.dir, 'golden');
/** UPDATE_GOLDEN=1 bun test test/cron/export.test.ts rewrites the golden files (then read the diff). */
const UPDATE = process.env.UPDATE_GOLDEN === '1';

function job(over: Partial<CronJob> & Pick<CronJob, 'name' | 'expression' | 'task'>): CronJob {
  return { timezone: 'Europe/Berlin', cwd: '/home/ana/src/shop', options: {}, catchUp: false, paused: false, nextDueAt: undefined, createdAt: 0, ...over };
}

const JOBS: CronJob[] = [
  job({ name: 'weekday-digest', expression: '0 9 * * 1-5', task: "Summarise yesterday's commits in NOTES.md" }),
  job({
    name: 'deps',
    expression: '30 0 * * 1',
    timezone: undefined,
    task: 'Update the dependencies,\nrun the tests, and say "done" with 100% of them passing; $HOME stays.',
    catchUp: true,
    options: { model: 'openai/gpt-5.1', maxTurns: 30, maxBudgetUsd: 2.5, timeoutMs: 1_800_000, allowedTools: ['Bash(npm test:*)', 'Edit(src/**)'], permissionMode: 'acceptEdits', worktree: true },
  }),
];

const OPTIONS: ExportOptions = {
  version: '0.1.0',
  now: Date.parse('2026-11-28T12:00:00Z'),
  localZone: 'America/New_York',
  image: 'ghcr.io/example/moat:0.1.0',
  action: 'moat-agent/moat@v0.1.0',
  repoFor: () => ({ url: 'https://github.com/example/shop.git', ref: 'main' }),
  secretName: 'moat-api-keys',
  apiKeyEnv: 'ANTHROPIC_API_KEY',
  moatCommand: ['/usr/local/bin/moat'],
};

function golden(target: ExportTarget): { name: string; text: string }[] {
  const files = exportJobs(JOBS, target, OPTIONS);
  for (const f of files) {
    const path = join(GOLDEN, target, f.name);
    if (UPDATE || !existsSync(path)) writeFileSync(path, f.text);
    expect(f.text).toBe(readFileSync(path, 'utf8'));
  }
  return files;
}

describe('github-actions', () => {
  test('the golden workflows, valid against the GitHub workflow schema, with the schedule in UTC', () => {
    const files = golden('github-actions');
    expect(files.map((f) => f.name)).toEqual(['moat-weekday-digest.yml', 'moat-deps.yml']);
    for (const f of files) expect(validateWorkflow(f.text).errors).toEqual([]);
    const digest = Bun.YAML.parse(files[0]?.text ?? '') as { on: { schedule: { cron: string }[] }; jobs: { run: { steps: { with?: Record<string, string> }[] } } };
    expect(digest.on.schedule).toEqual([{ cron: '0 8 * * 1-5' }]);
    // The New York job (the exporting machine's zone): Monday 00:30 there is Monday 05:30 UTC in November.
    const deps = Bun.YAML.parse(files[1]?.text ?? '') as typeof digest;
    expect(deps.on.schedule).toEqual([{ cron: '30 5 * * 1' }]);
    expect(deps.jobs.run.steps[1]?.with).toEqual({
      prompt: (JOBS[1] as CronJob).task,
      model: 'openai/gpt-5.1',
      permission_mode: 'acceptEdits',
      allowed_tools: 'Bash(npm test:*)\nEdit(src/**)',
      max_turns: '30',
      max_budget_usd: '2.5',
      worktree: 'true',
    });
  });

  test('a schema error is caught (the validator is not a rubber stamp)', () => {
    const broken = (exportJobs([JOBS[0] as CronJob], 'github-actions', OPTIONS)[0]?.text ?? '').replace('runs-on:', 'run-on:');
    expect(validateWorkflow(broken).errors.length).toBeGreaterThan(0);
  });
});

describe('kubernetes', () => {
  test('the golden CronJobs, valid against the Kubernetes batch/v1 schema', () => {
    const files = golden('kubernetes');
    for (const f of files) {
      const doc = Bun.YAML.parse(f.text) as Record<string, unknown>;
      new K8sCronJob(doc as ConstructorParameters<typeof K8sCronJob>[0]).validate();
      const spec = doc['spec'] as { concurrencyPolicy: string; timeZone: string; jobTemplate: { spec: { template: { spec: { initContainers: { args: string[] }[]; containers: { env: unknown[]; resources: unknown }[] } } } } };
      expect(spec.concurrencyPolicy).toBe('Forbid');
      const pod = spec.jobTemplate.spec.template.spec;
      expect(pod.initContainers[0]?.args).toEqual(['clone', '--depth', '1', '--branch', 'main', 'https://github.com/example/shop.git', '/workspace']);
      expect(pod.containers[0]?.env).toEqual([{ name: 'ANTHROPIC_API_KEY', valueFrom: { secretKeyRef: { name: 'moat-api-keys', key: 'ANTHROPIC_API_KEY' } } }]);
    }
    const deps = Bun.YAML.parse(files[1]?.text ?? '') as { spec: { timeZone: string; startingDeadlineSeconds?: number; jobTemplate: { spec: { activeDeadlineSeconds: number } } } };
    expect(deps.spec.timeZone).toBe('America/New_York');
    // catch-up: no starting deadline, so a missed run still starts.
    expect(deps.spec.startingDeadlineSeconds).toBeUndefined();
    expect(deps.spec.jobTemplate.spec.activeDeadlineSeconds).toBe(1800);
  });

  test('the schema check fails on a wrong type, and a folder with no remote is a clear error', () => {
    const doc = Bun.YAML.parse(exportJobs([JOBS[0] as CronJob], 'kubernetes', OPTIONS)[0]?.text ?? '') as { spec: { concurrencyPolicy: unknown } };
    doc.spec.concurrencyPolicy = 'Sometimes';
    expect(() => new K8sCronJob(doc as ConstructorParameters<typeof K8sCronJob>[0]).validate()).toThrow(/concurrencyPolicy/);
    expect(() => exportJobs([JOBS[0] as CronJob], 'kubernetes', { ...OPTIONS, repoFor: () => undefined })).toThrow('/home/ana/src/shop has no git remote to clone in the cluster: give one with --repo <url>');
  });
});

const hasSystemdAnalyze = Bun.which('systemd-analyze') !== null;
if (!hasSystemdAnalyze) console.log('skipped: systemd-analyze is not installed, the exported units are not verified by systemd');

describe('systemd', () => {
  test('the golden timer and service units', () => {
    const files = golden('systemd');
    expect(files.map((f) => f.name)).toEqual(['moat-cron-weekday-digest.service', 'moat-cron-weekday-digest.timer', 'moat-cron-deps.service', 'moat-cron-deps.timer']);
    expect(files[3]?.text).toContain('OnCalendar=Mon *-*-* 00:30:00 America/New_York\nPersistent=true\n');
  });

  test.skipIf(!hasSystemdAnalyze)('systemd-analyze verify accepts every unit (with moat at a real path), and rejects a broken one', () => {
    const dir = tempDir('moat-units-');
    const files = exportJobs(JOBS, 'systemd', { ...OPTIONS, moatCommand: ['/bin/true'] }).map((f) => {
      writeFileSync(join(dir, f.name), f.text);
      return join(dir, f.name);
    });
    const verify = (paths: string[]) => Bun.spawnSync(['systemd-analyze', 'verify', '--man=no', ...paths], { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, SYSTEMD_LOG_LEVEL: 'notice' } });
    const ok = verify(files);
    expect(ok.stderr.toString()).toBe('');
    expect(ok.exitCode).toBe(0);
    writeFileSync(join(dir, 'moat-cron-bad.timer'), '[Timer]\nOnCalendar=Mon..Fry *-*-* 09:00:00\n');
    writeFileSync(join(dir, 'moat-cron-bad.service'), '[Service]\nExecStart=/bin/true\n');
    const bad = verify([join(dir, 'moat-cron-bad.timer')]);
    expect(bad.stderr.toString()).toContain('Failed to parse calendar specification');
  });

  test('a hostile task stays one argument: quotes, backslashes, newlines, $ and % are escaped, not expanded', () => {
    expect(execArg('say "hi" \\ $HOME %h\nnext')).toBe('"say \\"hi\\" \\\\ $$HOME %%h\\nnext"');
    expect(execArg('/usr/local/bin/moat')).toBe('/usr/local/bin/moat');
    expect(execArg('--max-budget-usd')).toBe('--max-budget-usd');
  });
});

describe("README's indexed Job (100 tasks, one per completion index)", () => {
  test('is a valid batch/v1 Job that reads its task by JOB_COMPLETION_INDEX', async () => {
    const { Job } = await import('kubernetes-models/batch/v1/Job');
    const readme = readFileSync(join(import.meta.dir, '../../README.md'), 'utf8');
    const block = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] ?? '').find((y) => y.includes('kind: Job'));
    expect(block).toBeDefined();
    const doc = Bun.YAML.parse(block ?? '') as { spec: { completionMode: string; completions: number; template: { spec: { containers: { command: string[] }[] } } } };
    new Job(doc as ConstructorParameters<typeof Job>[0]).validate();
    expect([doc.spec.completionMode, doc.spec.completions]).toEqual(['Indexed', 100]);
    expect(doc.spec.template.spec.containers[0]?.command.join(' ')).toContain('JOB_COMPLETION_INDEX');
  });
});
