/**
 * Hostile end to end: moat's own git (the status for the system prompt, the
 * TUI's file list, a worktree sub-agent's checkout and commits) never runs
 * what a repository plants: its own `core.fsmonitor`, one reached through
 * `.git/commondir`, a nested repository's behind a gitlink, a repository a
 * command `git init`ed, hooks and filter drivers. Every planted program
 * appends to a marker file outside the sandbox; the marker must stay absent,
 * before trust (git does not run at all) and after (git runs with fsmonitor
 * and hooks off, in a read-only sandbox). Run `bun run build` first.
 */
import { beforeEach, describe, expect, test } from 'bun:test';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitOut, makeRepo, write } from '../agent/subagents/temp-repo.ts';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { MOAT_BIN, makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';
import { TmuxSession } from '../support/tmux.ts';

let server: FakeAnthropic;
let sb: Sandbox;
let marker: string;
let planted: string;

serveFakeAnthropic((s) => (server = s));
beforeEach(() => {
  sb = makeSandbox(server.url);
  server.requests.length = 0;
  marker = join(sb.home, 'PLANTED-PROGRAM-RAN');
  // The program every attack names: it leaves the marker (with the name it was run as) and answers like an fsmonitor hook.
  planted = join(sb.home, 'planted.sh');
  writeFileSync(planted, `#!/bin/sh\necho "$0 $*" >> '${marker}'\ncat\n`);
  chmodSync(planted, 0o755);
});

const ran = (): string => (existsSync(marker) ? readFileSync(marker, 'utf8') : '');

function trust(folder: string): void {
  const dir = join(sb.home, '.config', 'moat');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'projects.json'), JSON.stringify({ version: 1, projects: { [realpathSync(folder)]: { trusted: true } } }));
}

/** A repository with a commit and an untracked file whose own configuration names the planted program as fsmonitor. */
function fsmonitorRepo(): string {
  const repo = makeRepo({ 'a.txt': 'alpha\n' }, sb.cwd);
  write(repo, 'notes.txt', 'untracked\n');
  gitOut(repo, ['config', 'core.fsmonitor', planted]);
  return repo;
}

/** The system prompt of the first request. */
const systemPrompt = (): string => JSON.stringify((server.requests[0]?.body as { system: unknown }).system);

async function print(cwd: string, args: string[] = []): Promise<void> {
  server.script(reply().text('done'));
  const r = await runMoat(['-p', 'hello', ...args], { cwd, env: sb.env });
  expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: 'done\n' });
}

describe('the status for the system prompt', () => {
  test('before trust git does not run: the branch comes from .git/HEAD, the model is told the status was not read', async () => {
    const repo = fsmonitorRepo();
    await print(repo);
    expect(ran()).toBe('');
    expect(systemPrompt()).toContain('Git status: not read (the folder is not trusted yet');
    expect(systemPrompt()).toContain('main');
  });

  test("after trust the repository's own core.fsmonitor does not run; the status is read", async () => {
    const repo = fsmonitorRepo();
    trust(repo);
    await print(repo);
    expect(ran()).toBe('');
    expect(systemPrompt()).toContain('?? notes.txt');
  });

  test('a config planted through .git/commondir does not run', async () => {
    const repo = makeRepo({ 'a.txt': 'alpha\n' }, sb.cwd);
    write(repo, 'notes.txt', 'untracked\n');
    // A copy of the repository's metadata with the planted fsmonitor; .git/commondir sends git there.
    const elsewhere = join(sb.cwd, 'elsewhere');
    cpSync(join(repo, '.git'), elsewhere, { recursive: true });
    gitOut(repo, ['config', '--file', join(elsewhere, 'config'), 'core.fsmonitor', planted]);
    writeFileSync(join(repo, '.git', 'commondir'), `${elsewhere}\n`);
    trust(repo);
    await print(repo);
    expect(ran()).toBe('');
  });

  test("a nested repository added as a gitlink: its fsmonitor does not run", async () => {
    const repo = makeRepo({ 'a.txt': 'alpha\n' }, sb.cwd);
    const nested = makeRepo({ 'b.txt': 'beta\n' }, join(repo, 'sub'));
    gitOut(repo, ['add', 'sub/repo']);
    gitOut(repo, ['commit', '--quiet', '-m', 'gitlink']);
    gitOut(nested, ['config', 'core.fsmonitor', planted]);
    write(nested, 'dirty.txt', 'x\n');
    trust(repo);
    await print(repo);
    expect(ran()).toBe('');
  });

  test('a repository a sandboxed command git-inits in a folder that was none: its fsmonitor does not run', async () => {
    // The folder is trusted (the user said yes before it was a repository).
    trust(sb.cwd);
    server.script(reply().toolUse('Bash', { command: `git init -q && git config core.fsmonitor '${planted}' && echo x > notes.txt` }), reply().text('planted'));
    const plant = await runMoat(['-p', 'set up', '--allowedTools', 'Bash'], { cwd: sb.cwd, env: sb.env });
    expect(plant.stdout).toBe('planted\n');
    expect(gitOut(sb.cwd, ['config', 'core.fsmonitor'])).toBe(planted);
    server.requests.length = 0;
    await print(sb.cwd);
    expect(ran()).toBe('');
    expect(systemPrompt()).toContain('?? notes.txt');
  });

  test('a cron run in a trusted repository runs no planted fsmonitor', async () => {
    const repo = fsmonitorRepo();
    trust(repo);
    expect((await runMoat(['cron', 'add', '0 9 * * *', 'check', '--name', 'nightly'], { cwd: repo, env: sb.env })).code).toBe(0);
    server.script(reply().text('checked'));
    const run = await runMoat(['cron', 'run', 'nightly'], { cwd: repo, env: sb.env });
    expect(run.code).toBe(0);
    expect(run.stdout).toEndWith('\nchecked\n');
    expect(ran()).toBe('');
    expect(systemPrompt()).toContain('?? notes.txt');
  }, 30_000);
});

describe('a worktree sub-agent', () => {
  test("git worktree add, add, diff and commit run none of the repository's fsmonitor, hooks, drivers or signing program", async () => {
    const repo = makeRepo({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n', '.gitattributes': '*.txt filter=planted merge=planted diff=planted\n' }, sb.cwd);
    gitOut(repo, ['config', 'core.fsmonitor', planted]);
    for (const key of ['filter.planted.clean', 'filter.planted.smudge', 'merge.planted.driver', 'diff.planted.textconv', 'diff.planted.command', 'gpg.program']) gitOut(repo, ['config', key, planted]);
    gitOut(repo, ['config', 'commit.gpgSign', 'true']);
    for (const hook of ['post-checkout', 'pre-commit', 'post-commit', 'commit-msg', 'reference-transaction']) {
      writeFileSync(join(repo, '.git', 'hooks', hook), `#!/bin/sh\n'${planted}' ${hook}\n`);
      chmodSync(join(repo, '.git', 'hooks', hook), 0o755);
    }
    trust(repo);
    server.script(
      reply().toolUse('Read', { file_path: 'b.txt' }),
      reply().toolUse('Edit', { file_path: 'b.txt', old_string: 'beta', new_string: 'BETA' }),
      reply().text('changed b'),
    );
    const r = await runMoat(['-p', 'Uppercase beta', '--worktree', '--permission-mode', 'acceptEdits'], { cwd: repo, env: sb.env });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: 'changed b\n' });
    expect(r.stderr).toMatch(/^moat: 1 file changed on branch moat\//m);
    expect(ran()).toBe('');
  }, 30_000);
});

describe('the TUI', () => {
  test("a start in a trusted repository runs no planted fsmonitor (status, file list)", async () => {
    const repo = fsmonitorRepo();
    trust(repo);
    server.script(reply().text('hello from the model'));
    const env = { ...sb.env };
    delete env.NO_COLOR;
    const s = new TmuxSession(`${MOAT_BIN}; sleep 60`, { cols: 100, rows: 30, cwd: repo, env });
    try {
      await s.waitFor('Ask moat');
      // `@` lists the project's files through git ls-files.
      await s.typeAndWait('@note');
      await s.waitFor('notes.txt');
      s.keys('C-u');
      await s.typeAndWait('hi');
      s.keys('Enter');
      await s.waitFor('hello from the model', { timeoutMs: 15_000 });
      expect(ran()).toBe('');
      expect(systemPrompt()).toContain('?? notes.txt');
    } finally {
      await s.kill();
    }
  }, 30_000);
});
