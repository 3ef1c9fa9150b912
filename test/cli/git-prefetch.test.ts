/** git's status started before the command line is parsed: taken once by a run in the same folder, never by another. */
import { expect, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { gitInfoOf, prefetchGitInfo } from '../../src/cli/git-prefetch.ts';
import { tempDir } from '../support/temp.ts';

function repo(): string {
  const dir = tempDir('moat-git-prefetch-');
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  writeFileSync(`${dir}/draft.txt`, 'x\n');
  return dir;
}

test('a run in the folder takes the early status once; a run elsewhere or the next one asks git itself', async () => {
  const dir = repo();
  const other = repo();
  expect(prefetchGitInfo(['-p', 'hi'], dir)).toBe(true);
  // Only one at a time.
  expect(prefetchGitInfo(['-p', 'hi'], other)).toBe(false);
  const elsewhere = gitInfoOf(other);
  const first = gitInfoOf(dir);
  const second = gitInfoOf(dir);
  expect(first).not.toBe(second);
  expect(await first).toEqual(await second);
  expect((await first)?.status).toBe('?? draft.txt');
  expect((await elsewhere)?.root).not.toBe((await first)?.root);
  // Taken: a new early one may start.
  expect(prefetchGitInfo(['-p', 'hi'], dir)).toBe(true);
  await gitInfoOf(dir);
});

test('-p alone or among short flags, --print and stream-json input start it; no print run, --cwd, or -p after -- do not', async () => {
  const dir = repo();
  const starts = async (argv: string[]): Promise<boolean> => {
    const started = prefetchGitInfo(argv, dir);
    await gitInfoOf(dir);
    return started;
  };
  for (const argv of [['-p', 'task'], ['-cp', 'task'], ['--print', 'task'], ['--input-format=stream-json'], ['--input-format', 'stream-json', '--output-format', 'stream-json']]) {
    expect([argv, await starts(argv)]).toEqual([argv, true]);
  }
  for (const argv of [['task'], ['-p', '--cwd', '/elsewhere', 'hi'], ['--cwd=/x', '-p'], ['--', '-p'], ['sessions', 'list'], ['--input-format', 'text', 'hi']]) {
    expect([argv, await starts(argv)]).toEqual([argv, false]);
  }
});
