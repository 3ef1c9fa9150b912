/**
 * The GitHub Action (action.yml + action/*.sh) under a simulated runner:
 * installed from a release folder checked against SHA256SUMS, moat -p run
 * against the scripted model server, outputs and step summary written, the
 * session exported for the artifact, and the result posted to a fake GitHub
 * REST API — with the workflow's token kept out of moat's environment.
 * action.yml and the example workflows in docs/ are validated against
 * SchemaStore's schemas (@action-validator/core).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { validateAction, validateWorkflow } from '@action-validator/core';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { startFakeGitHub, type FakeGitHub } from '../support/fake-github.ts';
import { runAction, type SimulatedRun } from '../support/actions-runner.ts';
import { makeSandbox, MOAT_BIN } from '../support/run-moat.ts';
import { tempDir } from '../support/temp.ts';

const ROOT = resolve(import.meta.dir, '../..');
const TOKEN = 'ghs_simulatedWorkflowToken0123456789';
const VERSION = '0.1.0';

let model: FakeAnthropic;
let github: FakeGitHub;
let release: string;

/** A release folder as scripts/release.ts lays it out: the archive for this platform and SHA256SUMS. */
function makeRelease(): string {
  const dir = tempDir('moat-release-');
  const stage = tempDir('moat-stage-');
  copyFileSync(MOAT_BIN, join(stage, 'moat'));
  chmodSync(join(stage, 'moat'), 0o755);
  const target = process.arch === 'arm64' ? 'linux-arm64' : 'linux-x64';
  const archive = `moat-${VERSION}-${target}.tar.gz`;
  // gzip -1: the archive's compression is not what is tested, and the binary is large.
  const tar = Bun.spawnSync(['tar', '--use-compress-program=gzip -1', '-cf', join(dir, archive), '-C', stage, 'moat']);
  if (tar.exitCode !== 0) throw new Error('tar failed');
  const hash = new Bun.CryptoHasher('sha256').update(readFileSync(join(dir, archive))).digest('hex');
  writeFileSync(join(dir, 'SHA256SUMS'), `${'0'.repeat(64)}  moat-${VERSION}-darwin-arm64.tar.gz\n${hash}  ${archive}\n`);
  return dir;
}

beforeAll(async () => {
  model = await startFakeAnthropic();
  github = startFakeGitHub(TOKEN);
  release = makeRelease();
}, 120_000);

afterAll(async () => {
  await model.close();
  await github.close();
});

const PR_EVENT = { action: 'opened', number: 7, pull_request: { number: 7, title: 'Add a port setting', head: { ref: 'port' } }, repository: { full_name: 'example/shop' } };

function simulated(over: { inputs: Record<string, string>; event?: SimulatedRun['event']; env?: Record<string, string> }): SimulatedRun {
  const sb = makeSandbox(model.url);
  return {
    actionPath: ROOT,
    inputs: over.inputs,
    event: over.event ?? { name: 'pull_request', payload: PR_EVENT },
    workspace: sb.cwd,
    runnerTemp: join(sb.home, 'runner-temp'),
    // The job's environment holds the token too (a workflow's `env: GITHUB_TOKEN: …` is common): moat must not get it.
    env: { ...sb.env, GITHUB_TOKEN: TOKEN, GH_TOKEN: TOKEN, ACTIONS_RUNTIME_TOKEN: TOKEN, MOAT_SIM_MARKER: 'visible', ...over.env },
    github: { repository: 'example/shop', apiUrl: github.url, token: TOKEN, actionRef: `v${VERSION}`, actionRepository: 'moat-agent/moat' },
  };
}

function requestText(): string {
  return JSON.stringify(model.requests.map((r) => r.body));
}

describe('action.yml and the example workflows', () => {
  test('action.yml is valid against the GitHub action schema', () => {
    expect(validateAction(readFileSync(join(ROOT, 'action.yml'), 'utf8')).errors).toEqual([]);
  });

  test('every workflow in docs/workflows is valid against the GitHub workflow schema', () => {
    const dir = join(ROOT, 'docs', 'workflows');
    const files = readdirSync(dir).filter((f) => f.endsWith('.yml'));
    expect(files.length).toBeGreaterThanOrEqual(3);
    for (const f of files) expect({ file: f, errors: validateWorkflow(readFileSync(join(dir, f), 'utf8')).errors }).toEqual({ file: f, errors: [] });
  });

  test('no run step interpolates an input or output into its script (they arrive as environment variables)', () => {
    const action = Bun.YAML.parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { steps: { run?: string }[] } };
    for (const step of action.runs.steps) expect(step.run ?? '').not.toContain('${{');
  });
});

describe('a pull_request event under the simulated runner', () => {
  test('installs the checked release, reads then answers, sets the outputs, exports the session and posts the comment', async () => {
    const run = simulated({ inputs: { prompt: 'How many lines are in notes.txt?', release_url: `file://${release}`, allowed_tools: 'Read\n  Bash(printenv:*)  \n' } });
    writeFileSync(join(run.workspace, 'notes.txt'), 'alpha\nbeta\n');
    model.script(reply().text('Reading.').toolUse('Read', { file_path: 'notes.txt' }).stop('tool_use'), reply().text('It has **two** lines:\nalpha and beta.'));
    const r = await runAction(run);
    expect({ conclusion: r.conclusion, steps: r.steps.map((s) => [s.id ?? s.uses?.action, s.skipped, s.code]) }).toEqual({
      conclusion: 'success',
      steps: [
        ['install', false, 0],
        ['run', false, 0],
        ['actions/upload-artifact@v4', false, 0],
        ['comment', false, 0],
      ],
    });
    expect(r.steps[0]?.stdout).toContain(`moat ${VERSION} (linux-`);
    expect(r.outputs.result).toBe('It has **two** lines:\nalpha and beta.');
    expect(r.outputs.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(r.outputs.cost_usd)).toBeGreaterThan(0);
    expect(r.outputs.branch).toBe('');
    // The file's content went back to the model: the read really happened.
    expect(requestText()).toContain('alpha');
    // The artifact step got the exported session, which is on disk.
    const upload = r.steps[2]?.uses?.with ?? {};
    expect(upload.name).toBe(`moat-session-${r.outputs.session_id}`);
    const exported = JSON.parse(readFileSync(join(upload.path ?? '', `${r.outputs.session_id}.json`), 'utf8')) as { id?: string; session?: { id?: string } };
    expect(JSON.stringify(exported)).toContain(r.outputs.session_id ?? 'missing');
    expect(existsSync(join(upload.path ?? '', `${r.outputs.session_id}.md`))).toBe(true);
    expect(r.summary).toContain('### moat\n\nIt has **two** lines:\nalpha and beta.\n');
    // The comment: on PR 7 of the event's repository, with the workflow's token, the result and the session.
    const comment = github.comments.at(-1);
    expect(comment?.repository).toBe('example/shop');
    expect(comment?.number).toBe(7);
    expect(comment?.authorization).toBe(`Bearer ${TOKEN}`);
    expect(comment?.body).toBe(`It has **two** lines:\nalpha and beta.\n\n<sub>moat · session \`${r.outputs.session_id}\` · $${r.outputs.cost_usd}</sub>`);
    expect(r.steps[3]?.stdout).toContain('commented on #7: https://github.com/example/shop/pull/7#issuecomment-');
  });

  test("the token is not in moat's environment nor in what its tools see; the rest of the job's environment is", async () => {
    const run = simulated({ inputs: { prompt: 'Print the environment', moat_path: '', release_url: `file://${release}`, allowed_tools: 'Bash(env)' } });
    // moat_path: a wrapper that records the environment moat is started with.
    const wrapper = join(run.workspace, '..', 'moat-wrapper.sh');
    const envFile = join(run.workspace, '..', 'moat-env.txt');
    writeFileSync(wrapper, `#!/bin/sh\nenv >> '${envFile}'\nexec '${MOAT_BIN}' "$@"\n`);
    chmodSync(wrapper, 0o755);
    run.inputs['moat_path'] = wrapper;
    model.script(reply().toolUse('Bash', { command: 'env' }).stop('tool_use'), reply().text('Done.'));
    const before = model.requests.length;
    const r = await runAction(run);
    expect(r.conclusion).toBe('success');
    // Appended by each start: -p and the two session exports.
    const env = readFileSync(envFile, 'utf8');
    expect(env.split('MOAT_SIM_MARKER=visible').length - 1).toBe(3);
    expect(env).not.toContain(TOKEN);
    const sent = JSON.stringify(model.requests.slice(before).map((q) => q.body));
    expect(sent).toContain('MOAT_SIM_MARKER');
    expect(sent).not.toContain(TOKEN);
  });
});

describe('failures and events without a comment', () => {
  test('a tampered archive is refused before it is unpacked: nothing runs, nothing is posted', async () => {
    const bad = tempDir('moat-release-bad-');
    for (const f of readdirSync(release)) copyFileSync(join(release, f), join(bad, f));
    const archive = readdirSync(bad).find((f) => f.endsWith('.tar.gz')) ?? '';
    writeFileSync(join(bad, archive), Buffer.concat([readFileSync(join(bad, archive)), Buffer.from('tampered')]));
    const comments = github.comments.length;
    const requests = model.requests.length;
    const r = await runAction(simulated({ inputs: { prompt: 'anything', release_url: `file://${bad}` } }));
    expect(r.conclusion).toBe('failure');
    expect(r.steps.map((s) => [s.id ?? s.uses?.action, s.skipped])).toEqual([
      ['install', false],
      ['run', true],
      ['actions/upload-artifact@v4', true],
      ['comment', true],
    ]);
    expect(r.steps[0]?.stdout).toMatch(new RegExp(`^::error title=moat install::checksum mismatch for ${archive}: SHA256SUMS says [0-9a-f]{64}, the download is [0-9a-f]{64}\\n$`));
    expect(existsSync(join(bad, '..', 'moat'))).toBe(false);
    expect(github.comments.length).toBe(comments);
    expect(model.requests.length).toBe(requests);
  });

  test('no version to install (a branch ref and no input) is one clear error', async () => {
    const run = simulated({ inputs: { prompt: 'anything' } });
    run.github.actionRef = 'main';
    const r = await runAction(run);
    expect(r.steps[0]?.stdout).toBe('::error title=moat install::no moat version: the action ref "main" is not a release tag; set the input version (e.g. 0.1.0)\n');
  });

  test('a scheduled run with comment: auto posts nothing; an issue_comment run answers on its issue', async () => {
    const comments = github.comments.length;
    model.script(reply().text('Nightly done.'));
    const scheduled = await runAction(simulated({ inputs: { prompt: 'nightly', moat_path: MOAT_BIN }, event: { name: 'schedule', payload: { schedule: '0 3 * * *' } } }));
    expect(scheduled.conclusion).toBe('success');
    expect(scheduled.outputs.result).toBe('Nightly done.');
    expect(github.comments.length).toBe(comments);
    model.script(reply().text('Answered.'));
    const asked = await runAction(
      simulated({ inputs: { prompt: 'answer it', moat_path: MOAT_BIN }, event: { name: 'issue_comment', payload: { action: 'created', issue: { number: 12 }, comment: { body: '@moat why?' } } } }),
    );
    expect(asked.conclusion).toBe('success');
    expect(github.comments.at(-1)).toMatchObject({ number: 12, body: expect.stringContaining('Answered.') });
  });

  test('moat stopping at max_turns fails the step, still sets the outputs and uploads the session, and posts no comment', async () => {
    const comments = github.comments.length;
    model.script(reply().toolUse('Read', { file_path: 'missing.txt' }).stop('tool_use'));
    const r = await runAction(simulated({ inputs: { prompt: 'loop', moat_path: MOAT_BIN, max_turns: '1', allowed_tools: 'Read' } }));
    expect(r.conclusion).toBe('failure');
    expect(r.steps.map((s) => [s.id ?? s.uses?.action, s.skipped, s.code])).toEqual([
      ['install', false, 0],
      ['run', false, 3],
      ['actions/upload-artifact@v4', false, 0],
      ['comment', true, 0],
    ]);
    expect(r.outputs.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.outputs.result).not.toBe('');
    expect(github.comments.length).toBe(comments);
  });

  test('a bad worktree value is refused before moat starts', async () => {
    const r = await runAction(simulated({ inputs: { prompt: 'x', moat_path: MOAT_BIN, worktree: 'yes' } }));
    expect(r.steps[1]?.stdout).toBe('::error title=moat::worktree is true or false, not "yes"\n');
    expect(r.conclusion).toBe('failure');
  });
});


const hasShellcheck = Bun.which('shellcheck') !== null;
if (!hasShellcheck) console.log('skipped: shellcheck is not installed, the action scripts are not linted');

test.skipIf(!hasShellcheck)('the action scripts pass shellcheck', () => {
  const scripts = readdirSync(join(ROOT, 'action')).filter((f) => f.endsWith('.sh')).map((f) => join(ROOT, 'action', f));
  expect(scripts.length).toBe(3);
  const r = Bun.spawnSync(['shellcheck', ...scripts], { stdout: 'pipe', stderr: 'pipe' });
  expect(r.stdout.toString()).toBe('');
  expect(r.exitCode).toBe(0);
});
