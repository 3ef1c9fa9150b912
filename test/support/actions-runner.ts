/**
 * A simulated GitHub Actions runner for a composite action: runs the steps of
 * action.yml in order the way the runner does — each `run` step in bash with
 * the runner's files (GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ENV,
 * GITHUB_PATH, GITHUB_EVENT_PATH) and its `${{ }}` expressions filled in from
 * inputs, step outputs and the github context; `if:` conditions evaluated;
 * `uses` steps recorded (not run), with their inputs resolved. Only the
 * expression forms action.yml uses are understood; anything else throws, so
 * the simulator never silently reads an expression wrongly.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface ActionStep {
  id?: string;
  if?: string;
  shell?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}

interface ActionFile {
  inputs: Record<string, { default?: string; required?: boolean }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: ActionStep[] };
}

export interface StepRecord {
  id: string | undefined;
  /** Skipped by its `if:`. */
  skipped: boolean;
  code: number;
  stdout: string;
  stderr: string;
  uses?: { action: string; with: Record<string, string> };
}

export interface RunnerResult {
  steps: StepRecord[];
  outputs: Record<string, string>;
  /** success or failure, as the job would end. */
  conclusion: 'success' | 'failure';
  summary: string;
}

export interface SimulatedRun {
  /** The repository folder holding action.yml and action/. */
  actionPath: string;
  inputs: Record<string, string>;
  event: { name: string; payload: unknown };
  /** The checkout the steps run in. */
  workspace: string;
  /** RUNNER_TEMP and the runner's files live here. */
  runnerTemp: string;
  /** The job's environment (PATH, HOME, provider keys…). */
  env: Record<string, string>;
  github: { repository: string; apiUrl: string; token: string; actionRef: string; actionRepository: string };
}

/** GitHub's output-file format: `name=value` lines and `name<<DELIMITER` … `DELIMITER` blocks. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc !== null) {
      const [, name = '', delimiter] = heredoc;
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i] ?? '');
      if (i >= lines.length) throw new Error(`output ${name}: delimiter ${delimiter} never closes`);
      out[name] = value.join('\n');
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return out;
}

interface Context {
  inputs: Record<string, string>;
  steps: Record<string, { outputs: Record<string, string> }>;
  github: Record<string, string>;
  failed: boolean;
}

/** One value: `inputs.x`, `steps.id.outputs.y`, `github.z`, or a quoted string. */
function value(term: string, ctx: Context): string {
  const t = term.trim();
  const quoted = /^'(.*)'$/.exec(t);
  if (quoted !== null) return quoted[1] ?? '';
  const path = t.split('.');
  if (path[0] === 'inputs' && path.length === 2) return ctx.inputs[path[1] ?? ''] ?? '';
  if (path[0] === 'github' && path.length === 2) return ctx.github[path[1] ?? ''] ?? '';
  if (path[0] === 'steps' && path.length === 4 && path[2] === 'outputs') return ctx.steps[path[1] ?? '']?.outputs[path[3] ?? ''] ?? '';
  throw new Error(`the simulated runner does not read the expression "${t}"`);
}

/** `always()`, `success()`, `failure()`, `a == b`, `a != b`, joined by `&&`. */
function condition(expression: string, ctx: Context): boolean {
  return expression.split('&&').every((part) => {
    const p = part.trim();
    if (p === 'always()') return true;
    if (p === 'success()') return !ctx.failed;
    if (p === 'failure()') return ctx.failed;
    const cmp = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(p);
    if (cmp === null) throw new Error(`the simulated runner does not read the condition "${p}"`);
    const equal = value(cmp[1] ?? '', ctx) === value(cmp[3] ?? '', ctx);
    return cmp[2] === '==' ? equal : !equal;
  });
}

function substitute(text: string, ctx: Context): string {
  return text.replace(/\$\{\{(.*?)\}\}/g, (_, expr: string) => value(expr, ctx));
}

export async function runAction(run: SimulatedRun): Promise<RunnerResult> {
  const action = Bun.YAML.parse(readFileSync(join(run.actionPath, 'action.yml'), 'utf8')) as ActionFile;
  if (action.runs.using !== 'composite') throw new Error(`not a composite action: ${action.runs.using}`);
  mkdirSync(run.runnerTemp, { recursive: true });
  const eventPath = join(run.runnerTemp, 'event.json');
  writeFileSync(eventPath, JSON.stringify(run.event.payload));
  const summaryPath = join(run.runnerTemp, 'step-summary.md');
  writeFileSync(summaryPath, '');
  const github = { token: run.github.token, action_ref: run.github.actionRef, action_repository: run.github.actionRepository, repository: run.github.repository, event_name: run.event.name };
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    const given = run.inputs[name];
    if (given === undefined && spec.required === true) throw new Error(`input ${name} is required`);
    inputs[name] = given ?? substitute(spec.default ?? '', { inputs: {}, steps: {}, github, failed: false });
  }
  for (const name of Object.keys(run.inputs)) if (!(name in action.inputs)) throw new Error(`action.yml has no input ${name}`);
  const ctx: Context = { inputs, steps: {}, github, failed: false };
  const records: StepRecord[] = [];
  const extraPath: string[] = [];
  const extraEnv: Record<string, string> = {};
  for (const [index, step] of action.runs.steps.entries()) {
    // A step without `if:` runs only while nothing has failed (success()).
    if (!condition(step.if ?? 'success()', ctx)) {
      records.push({ id: step.id, skipped: true, code: 0, stdout: '', stderr: '', ...(step.uses === undefined ? {} : { uses: { action: step.uses, with: {} } }) });
      continue;
    }
    if (step.uses !== undefined) {
      const resolved = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)]));
      records.push({ id: step.id, skipped: false, code: 0, stdout: '', stderr: '', uses: { action: step.uses, with: resolved } });
      continue;
    }
    if (step.shell !== 'bash' || step.run === undefined) throw new Error(`step ${index}: only bash run steps are simulated`);
    const files = { output: join(run.runnerTemp, `output-${index}`), env: join(run.runnerTemp, `env-${index}`), path: join(run.runnerTemp, `path-${index}`) };
    for (const f of Object.values(files)) writeFileSync(f, '');
    const env: Record<string, string> = {
      ...run.env,
      ...extraEnv,
      PATH: [...extraPath, run.env['PATH'] ?? '/usr/bin:/bin'].join(':'),
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_ACTION_PATH: run.actionPath,
      GITHUB_WORKSPACE: run.workspace,
      GITHUB_EVENT_NAME: run.event.name,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: run.github.repository,
      GITHUB_API_URL: run.github.apiUrl,
      GITHUB_OUTPUT: files.output,
      GITHUB_ENV: files.env,
      GITHUB_PATH: files.path,
      GITHUB_STEP_SUMMARY: summaryPath,
      RUNNER_TEMP: run.runnerTemp,
      RUNNER_OS: 'Linux',
      RUNNER_ARCH: process.arch === 'arm64' ? 'ARM64' : 'X64',
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, substitute(String(v), ctx)])),
    };
    // The runner writes the script to a file and runs `bash --noprofile --norc -eo pipefail <file>`.
    const script = join(run.runnerTemp, `step-${index}.sh`);
    writeFileSync(script, substitute(step.run, ctx));
    const proc = Bun.spawn(['bash', '--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: run.workspace, env, stdout: 'pipe', stderr: 'pipe' });
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    records.push({ id: step.id, skipped: false, code, stdout, stderr });
    if (step.id !== undefined) ctx.steps[step.id] = { outputs: parseOutputFile(readFileSync(files.output, 'utf8')) };
    Object.assign(extraEnv, parseOutputFile(readFileSync(files.env, 'utf8')));
    extraPath.unshift(...readFileSync(files.path, 'utf8').split('\n').filter(Boolean).reverse());
    if (code !== 0) ctx.failed = true;
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, o]) => [k, substitute(o.value, ctx)]));
  appendFileSync(summaryPath, '');
  return { steps: records, outputs, conclusion: ctx.failed ? 'failure' : 'success', summary: readFileSync(summaryPath, 'utf8') };
}
