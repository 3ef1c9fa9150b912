/** The shadow repository's lock: callers in one process take turns in order, each going on as soon as the last is done. */
import { expect, test } from 'bun:test';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ShadowGit } from '../../src/checkpoints/shadow-git.ts';
import { tempDir } from '../support/temp.ts';

function repo(): { git: ShadowGit; gitDir: string } {
  const dir = tempDir('moat-shadow-');
  mkdirSync(join(dir, 'work'));
  const gitDir = join(dir, 'shadow');
  return { git: new ShadowGit(gitDir, join(dir, 'work')), gitDir };
}

test('in one process: one holder at a time, in the order asked, the next going on as soon as the last is done', async () => {
  const { git, gitDir } = repo();
  await git.ensure();
  const log: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const first = git.locked(async () => {
    log.push('first in');
    await held;
    log.push('first out');
  });
  const second = git.locked(async () => {
    log.push('second in');
    return 2;
  });
  const third = git.locked(async () => {
    throw new Error('third fails');
  });
  const fourth = git.locked(async () => 4);
  await Promise.resolve();
  expect(log).toEqual(['first in']);
  expect(existsSync(join(gitDir, 'moat.lock'))).toBe(true);
  release();
  await first;
  // Handed on within the same task (promises only), not at the file lock's next poll: before any timer can fire.
  const timer = new Promise((r) => setTimeout(() => r('a timer fired first'), 0));
  expect(await Promise.race([second, timer])).toBe(2);
  expect(log).toEqual(['first in', 'first out', 'second in']);
  expect(third).rejects.toThrow('third fails');
  expect(await fourth).toBe(4);
  expect(existsSync(join(gitDir, 'moat.lock'))).toBe(false);
});
