import { describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gitInfo } from '../../src/agent/git-info.ts';
import { tempDir } from '../support/temp.ts';

const git = (cwd: string, ...args: string[]) => {
  const r = Bun.spawnSync(['git', '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return r.stdout.toString().trim();
};

describe('gitInfo', () => {
  test('outside a repository: undefined', () => {
    expect(gitInfo(tempDir('moat-nogit-'))).toBeUndefined();
  });

  test('a new repository without commits, a branch, a detached HEAD, and the short status', () => {
    const root = tempDir('moat-git-');
    git(root, 'init', '-q', '-b', 'trunk');
    expect(gitInfo(root)).toEqual({ root, branch: 'trunk', status: '' });
    git(root, 'commit', '-q', '--allow-empty', '-m', 'x');
    git(root, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(root, 'new.txt'), 'n');
    expect(gitInfo(root)).toEqual({ root, branch: 'feature', status: '?? new.txt' });
    git(root, 'checkout', '-q', '--detach');
    expect(gitInfo(root)?.branch).toBe(git(root, 'rev-parse', '--short', 'HEAD'));
  });
});
