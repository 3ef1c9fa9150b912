/**
 * `moat cron export` end to end with the compiled binary: stored jobs written
 * as a Kubernetes CronJob (cloning the folder's origin), a GitHub workflow and
 * systemd units into a folder, and each mistake as one line with exit 2.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { validateWorkflow } from '@action-validator/core';
import { CronJob as K8sCronJob } from 'kubernetes-models/batch/v1/CronJob';
import { MOAT_BIN, makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';

let sb: Sandbox;

beforeEach(() => {
  if (!existsSync(MOAT_BIN)) throw new Error('dist/moat is missing: run `bun run build` first');
  sb = makeSandbox();
});
afterEach(() => {
  rmSync(dirname(sb.cwd), { recursive: true, force: true });
});

const moat = (args: string[]) => runMoat(args, { cwd: sb.cwd, env: sb.env });

async function addJobs(): Promise<void> {
  Bun.spawnSync(['git', 'init', '-q', sb.cwd]);
  Bun.spawnSync(['git', '-C', sb.cwd, 'remote', 'add', 'origin', 'https://github.com/example/shop.git']);
  expect((await moat(['cron', 'add', '0 9 * * 1-5', 'summarise the commits', '--name', 'digest', '--tz', 'Europe/Berlin', '--max-turns', '5'])).code).toBe(0);
  expect((await moat(['cron', 'add', '30 2 * * *', 'bump "deps" 100%', '--name', 'bump', '--tz', 'UTC', '--model', 'openai/gpt-5.1'])).code).toBe(0);
}

describe('moat cron export', () => {
  test('--to kubernetes prints a valid CronJob cloning the folder\'s origin, with the key of the job\'s provider', async () => {
    await addJobs();
    const r = await moat(['cron', 'export', 'bump', '--to', 'kubernetes', '--image', 'registry.example/moat:1']);
    expect(r.code).toBe(0);
    const doc = Bun.YAML.parse(r.stdout) as ConstructorParameters<typeof K8sCronJob>[0] & { spec: { timeZone: string; jobTemplate: { spec: { template: { spec: { initContainers: { args: string[] }[]; containers: { image: string; env: { name: string }[]; args: string[] }[] } } } } } };
    new K8sCronJob(doc).validate();
    const pod = doc.spec.jobTemplate.spec.template.spec;
    expect(pod.initContainers[0]?.args).toEqual(['clone', '--depth', '1', 'https://github.com/example/shop.git', '/workspace']);
    expect(pod.containers[0]?.image).toBe('registry.example/moat:1');
    expect(pod.containers[0]?.env.map((e) => e.name)).toEqual(['OPENAI_API_KEY']);
    expect(pod.containers[0]?.args).toEqual(['-p', 'bump "deps" 100%', '--output-format', 'json', '--model', 'openai/gpt-5.1']);
    expect(doc.spec.timeZone).toBe('UTC');
  });

  test('--all --to github-actions and --to systemd --out write one file per job (two per job for systemd)', async () => {
    await addJobs();
    const out = join(sb.home, 'exported');
    const gh = await moat(['cron', 'export', '--all', '--to', 'github-actions', '--out', out]);
    expect(gh.code).toBe(0);
    expect(gh.stdout).toBe(`Wrote ${join(out, 'moat-bump.yml')}, ${join(out, 'moat-digest.yml')}\n`);
    for (const f of ['moat-bump.yml', 'moat-digest.yml']) expect(validateWorkflow(readFileSync(join(out, f), 'utf8')).errors).toEqual([]);
    expect(readFileSync(join(out, 'moat-digest.yml'), 'utf8')).toContain('ANTHROPIC_API_KEY: "${{ secrets.ANTHROPIC_API_KEY }}"');
    const units = join(sb.home, 'units');
    expect((await moat(['cron', 'export', '--all', '--to', 'systemd', '--out', units])).code).toBe(0);
    expect(readdirSync(units).sort()).toEqual(['moat-cron-bump.service', 'moat-cron-bump.timer', 'moat-cron-digest.service', 'moat-cron-digest.timer']);
    expect(readFileSync(join(units, 'moat-cron-digest.service'), 'utf8')).toContain(`ExecStart=${MOAT_BIN} -p "summarise the commits" --output-format json --cwd ${sb.cwd} --max-turns 5\n`);
  });

  test('mistakes are one line each', async () => {
    const none = await moat(['cron', 'export', 'nope', '--to', 'systemd']);
    expect(none).toMatchObject({ code: 2, stderr: 'moat: no scheduled job named nope (moat cron list shows them)\n' });
    expect((await moat(['cron', 'export', '--all', '--to', 'systemd'])).stderr).toBe('moat: no scheduled jobs to export (moat cron add adds one)\n');
    expect((await moat(['cron', 'add', '0 9 * * *', 'x', '--name', 'loose'])).code).toBe(0);
    expect(await moat(['cron', 'export', 'loose', '--to', 'kubernetes'])).toMatchObject({ code: 2, stderr: `moat: ${sb.cwd} has no git remote to clone in the cluster: give one with --repo <url>\n` });
    expect((await moat(['cron', 'export', '--to', 'systemd'])).stderr).toBe('moat: which job? moat cron export <name> --to …, or --all\n');
    const engine = await moat(['cron', 'export', 'loose', '--to', 'nomad']);
    expect(engine.code).toBe(2);
    expect(engine.stderr.split('\n').length).toBe(2);
    expect(engine.stderr).toContain('nomad');
  });
});
