/**
 * Worktree operations on real temporary repositories: creation (from HEAD and
 * from the working tree), finishing (commit or removal), merge and removal.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import {
  createWorktree,
  deleteWorktree,
  findWorktree,
  finishWorktree,
  listWorktrees,
  mergeWorktree,
  readRecord,
} from '../../../src/agent/index.ts';
import { branches, gitOut, makeRepo, sh, status, write } from './temp-repo.ts';
import { tempDir } from '../../support/temp.ts';

describe('createWorktree', () => {
  test('from HEAD: a branch moat/<id>-<slug> under .moat/worktrees, invisible to git status', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    write(repo, 'a.txt', 'dirty\n');
    const { record, cwd } = await createWorktree(repo, { id: 'abcd1234', description: 'Fix the Login bug!', base: 'head' });
    expect(record.branch).toBe('moat/abcd1234-fix-the-login-bug');
    expect(record.path).toBe(join(repo, '.moat', 'worktrees', 'abcd1234'));
    expect(cwd).toBe(record.path);
    expect(record.startCommit).toBe(record.baseCommit);
    // The worktree holds HEAD's content, not the parent's uncommitted edit.
    expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('a\n');
    // Only the user's own edit shows in their status: the worktree folder and its record are excluded.
    expect(status(repo)).toBe('M a.txt');
    expect(readFileSync(join(repo, '.git', 'info', 'exclude'), 'utf8')).toContain('/.moat/worktrees/');
    expect(readRecord(repo, 'abcd1234')).toEqual(record);
  });

  test('from a subfolder: the agent starts in the same subfolder of the worktree', async () => {
    const repo = makeRepo({ 'pkg/src/x.ts': 'x\n' });
    const { record, cwd } = await createWorktree(join(repo, 'pkg'), { id: 'sub00001', description: 'x', base: 'head' });
    expect(record.path).toBe(join(repo, '.moat', 'worktrees', 'sub00001'));
    expect(cwd).toBe(join(record.path, 'pkg'));
  });

  test('base working-tree carries tracked and untracked changes, never ignored files, and leaves the parent as it was', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n', 'gone.txt': 'bye\n', '.gitignore': 'secret.env\n' });
    write(repo, 'a.txt', 'a changed\n');
    write(repo, 'new/untracked.txt', 'new\n');
    write(repo, 'secret.env', 'TOKEN=1\n');
    gitOut(repo, ['rm', '--quiet', 'gone.txt']);
    symlinkSync('a.txt', join(repo, 'link'));
    const before = status(repo);

    const { record, cwd } = await createWorktree(repo, { id: 'carry001', description: 'carry', base: 'working-tree' });
    expect(readFileSync(join(cwd, 'a.txt'), 'utf8')).toBe('a changed\n');
    expect(readFileSync(join(cwd, 'new/untracked.txt'), 'utf8')).toBe('new\n');
    expect(existsSync(join(cwd, 'gone.txt'))).toBe(false);
    expect(existsSync(join(cwd, 'secret.env'))).toBe(false);
    expect(gitOut(cwd, ['cat-file', '-p', 'HEAD:link'])).toBe('a.txt');
    // The carried state is its own commit: the agent's work starts after it.
    expect(record.startCommit).not.toBe(record.baseCommit);
    expect(gitOut(cwd, ['status', '--porcelain'])).toBe('');
    expect(status(repo)).toBe(before);
    expect(readFileSync(join(repo, 'secret.env'), 'utf8')).toBe('TOKEN=1\n');

    // Nothing done on top of the carried changes: nothing to report, worktree and branch go.
    expect(await finishWorktree(record, 'nothing')).toBeUndefined();
    expect(existsSync(record.path)).toBe(false);
    expect(branches(repo)).toEqual(['main']);
  });

  test('outside a repository, and in one without commits, it is refused with a clear message', async () => {
    const plain = tempDir('moat-plain-');
    await expect(createWorktree(plain, { id: 'x0000001', description: 'x', base: 'head' })).rejects.toThrow(
      `isolation "worktree" needs a git repository, and ${plain} is not inside one`,
    );
    sh(plain, ['init', '--quiet']);
    await expect(createWorktree(plain, { id: 'x0000002', description: 'x', base: 'head' })).rejects.toThrow('this repository has none yet');
  });
});

describe('finishWorktree', () => {
  test('commits the work with the description and reports files with +/- counts and the diff stat', async () => {
    const repo = makeRepo({ 'a.txt': 'one\ntwo\n', 'old.txt': 'old\n' });
    const { record, cwd } = await createWorktree(repo, { id: 'fin00001', description: 'Edit a', base: 'head' });
    write(cwd, 'a.txt', 'one\nTWO\nthree\n');
    write(cwd, 'b.txt', 'b\n');
    sh(cwd, ['rm', '--quiet', 'old.txt']);
    const changes = await finishWorktree(record, 'Edit a\n\nbody');
    expect(changes).toEqual({
      id: 'fin00001',
      branch: record.branch,
      path: record.path,
      commit: gitOut(repo, ['rev-parse', record.branch]),
      files: [
        { path: 'a.txt', status: 'M', added: 2, removed: 1 },
        { path: 'b.txt', status: 'A', added: 1, removed: 0 },
        { path: 'old.txt', status: 'D', added: 0, removed: 1 },
      ],
      diffStat: expect.stringContaining('3 files changed, 3 insertions(+), 2 deletions(-)') as unknown as string,
    });
    expect(gitOut(repo, ['log', '-1', '--format=%s', record.branch])).toBe('Edit a');
    // The commit used the repository's identity, and the parent's tree is untouched.
    expect(gitOut(repo, ['log', '-1', '--format=%an', record.branch])).toBe('Test User');
    expect(status(repo)).toBe('');
    expect(readRecord(repo, 'fin00001')?.state).toBe('ready');
  });

  test('a worktree with no changes is removed with its branch and record', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    const { record } = await createWorktree(repo, { id: 'empty001', description: 'nothing', base: 'head' });
    expect(branches(repo)).toContain(record.branch);
    expect(await finishWorktree(record, 'nothing')).toBeUndefined();
    expect(existsSync(record.path)).toBe(false);
    expect(branches(repo)).toEqual(['main']);
    expect(readRecord(repo, 'empty001')).toBeUndefined();
    expect(gitOut(repo, ['worktree', 'list']).split('\n').length).toBe(1);
  });
});

describe('merge and rm', () => {
  test('two branches editing different files both merge; list shows the states', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const one = await createWorktree(repo, { id: 'one00001', description: 'edit a', base: 'head' });
    const two = await createWorktree(repo, { id: 'two00002', description: 'edit b', base: 'head' });
    write(one.cwd, 'a.txt', 'A\n');
    write(two.cwd, 'b.txt', 'B\n');
    await finishWorktree(one.record, 'edit a');
    await finishWorktree(two.record, 'edit b');
    expect((await listWorktrees(repo)).map((i) => [i.record.id, i.state])).toEqual([
      ['one00001', 'ready'],
      ['two00002', 'ready'],
    ]);
    expect(await mergeWorktree(repo, await findWorktree(repo, 'one'))).toMatchObject({ kind: 'merged' });
    expect(await mergeWorktree(repo, await findWorktree(repo, 'two'))).toMatchObject({ kind: 'merged' });
    expect([readFileSync(join(repo, 'a.txt'), 'utf8'), readFileSync(join(repo, 'b.txt'), 'utf8')]).toEqual(['A\n', 'B\n']);
    expect(status(repo)).toBe('');
    expect((await listWorktrees(repo)).map((i) => i.state)).toEqual(['merged', 'merged']);
    expect(await mergeWorktree(repo, await findWorktree(repo, 'one'))).toEqual({ kind: 'up_to_date' });
    // Merged work can go without --force.
    await deleteWorktree(await findWorktree(repo, 'one'), false);
    expect(branches(repo)).toEqual(['main', two.record.branch]);
  });

  test('a conflict stops in git merging state, recoverable with git merge --abort', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    const wt = await createWorktree(repo, { id: 'conf0001', description: 'edit a', base: 'head' });
    write(wt.cwd, 'a.txt', 'from the agent\n');
    await finishWorktree(wt.record, 'edit a');
    write(repo, 'a.txt', 'from the user\n');
    gitOut(repo, ['commit', '--quiet', '-am', 'user edit']);
    const head = gitOut(repo, ['rev-parse', 'HEAD']);

    expect(await mergeWorktree(repo, await findWorktree(repo, 'conf0001'))).toEqual({ kind: 'conflict', files: ['a.txt'] });
    expect(existsSync(join(repo, '.git', 'MERGE_HEAD'))).toBe(true);
    expect(gitOut(repo, ['status'])).toContain('You have unmerged paths');
    gitOut(repo, ['merge', '--abort']);
    expect(gitOut(repo, ['rev-parse', 'HEAD'])).toBe(head);
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('from the user\n');
    expect(status(repo)).toBe('');
  });

  test('local changes in the way: git refuses and nothing changes', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    const wt = await createWorktree(repo, { id: 'refu0001', description: 'edit a', base: 'head' });
    write(wt.cwd, 'a.txt', 'agent\n');
    await finishWorktree(wt.record, 'edit a');
    write(repo, 'a.txt', 'uncommitted\n');
    const r = await mergeWorktree(repo, await findWorktree(repo, 'refu0001'));
    expect(r.kind).toBe('refused');
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('uncommitted\n');
  });

  test('rm refuses unmerged work without --force', async () => {
    const repo = makeRepo({ 'a.txt': 'a\n' });
    const wt = await createWorktree(repo, { id: 'rmrm0001', description: 'edit a', base: 'head' });
    write(wt.cwd, 'a.txt', 'agent\n');
    await finishWorktree(wt.record, 'edit a');
    await expect(deleteWorktree(await findWorktree(repo, 'rmrm'), false)).rejects.toThrow('--force');
    expect(existsSync(wt.record.path)).toBe(true);
    await deleteWorktree(await findWorktree(repo, 'rmrm'), true);
    expect(existsSync(wt.record.path)).toBe(false);
    expect(branches(repo)).toEqual(['main']);
    expect(await listWorktrees(repo)).toEqual([]);
  });
});
