import { describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { capStatus, gitHead, gitInfo, GIT_STATUS_ARGV, type GitStatusReader } from '../../src/util/git-info.ts';
import { tempDir } from '../support/temp.ts';

const git = (cwd: string, ...args: string[]) => {
  const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return r.stdout.toString().trim();
};

/** What git itself says, for comparison: the top folder and the branch (or short commit). */
const gitSays = (cwd: string) => ({
  root: git(cwd, 'rev-parse', '--show-toplevel'),
  branch: git(cwd, 'branch', '--show-current') || git(cwd, 'rev-parse', '--short', 'HEAD'),
});

/** The status as moat's flags make git print it, without the sandbox (sandbox/os/own-git.ts adds that). */
const readStatus: GitStatusReader = async (cwd) => {
  const r = Bun.spawnSync([...GIT_STATUS_ARGV], { cwd });
  return r.exitCode === 0 ? capStatus(r.stdout.toString()) : '';
};

describe('gitInfo', () => {
  test('outside a repository: undefined', async () => {
    const dir = tempDir('moat-nogit-');
    expect(gitHead(dir)).toBeUndefined();
    expect(await gitInfo(dir)).toBeUndefined();
  });

  test('a new repository without commits, a branch, a detached HEAD, and the short status', async () => {
    const root = tempDir('moat-git-');
    git(root, 'init', '-q', '-b', 'trunk');
    expect(await gitInfo(root, gitHead(root), readStatus)).toEqual({ root, branch: 'trunk', status: '' });
    // Without a reader (a folder not trusted) git does not run: the status is not known.
    expect(await gitInfo(root)).toEqual({ root, branch: 'trunk', status: undefined });
    git(root, 'commit', '-q', '--allow-empty', '-m', 'x');
    git(root, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(root, 'new.txt'), 'n');
    expect(await gitInfo(root, gitHead(root), readStatus)).toEqual({ root, branch: 'feature', status: '?? new.txt' });
    git(root, 'checkout', '-q', '--detach');
    expect((await gitInfo(root))?.branch).toBe(git(root, 'rev-parse', '--short', 'HEAD'));
  });

  test('from a subfolder, through a symlink, and in a linked worktree: what git says', async () => {
    const base = tempDir('moat-git-');
    const root = join(base, 'repo');
    mkdirSync(join(root, 'src', 'deep'), { recursive: true });
    git(root, 'init', '-q', '-b', 'main');
    writeFileSync(join(root, 'src', 'a.txt'), 'a');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'a');
    const sub = join(root, 'src', 'deep');
    expect(gitHead(sub)).toEqual(gitSays(sub));
    // The status is git's own, relative to the folder asked about.
    writeFileSync(join(root, 'src', 'b.txt'), 'b');
    expect((await gitInfo(sub, gitHead(sub), readStatus))?.status).toBe(git(sub, 'status', '--short'));
    const link = join(base, 'link');
    symlinkSync(root, link);
    expect(gitHead(join(link, 'src'))).toEqual(gitSays(join(link, 'src')));
    // A linked worktree: `.git` is a file naming the worktree's git folder.
    const tree = join(base, 'tree');
    git(root, 'worktree', 'add', '-q', '-b', 'side', tree);
    expect(gitHead(tree)).toEqual({ root: tree, branch: 'side' });
    expect(gitHead(tree)).toEqual(gitSays(tree));
  });

  test('a .git folder without HEAD is not a repository: the search goes on upwards', () => {
    const root = tempDir('moat-git-');
    git(root, 'init', '-q', '-b', 'outer');
    const inner = join(root, 'inner');
    mkdirSync(join(inner, '.git'), { recursive: true });
    expect(gitHead(inner)).toEqual({ root, branch: 'outer' });
  });
});
