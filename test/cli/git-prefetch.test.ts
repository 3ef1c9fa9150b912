/** git's status started before the command line is parsed: taken once by a run in the same folder, never by another. */
import { expect, test } from 'bun:test';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { gitInfoOf, prefetchGitInfo } from '../../src/cli/git-prefetch.ts';
import { trustProject } from '../../src/config/index.ts';
import { tempDir } from '../support/temp.ts';

// The trust record is read from $XDG_CONFIG_HOME/moat: a folder of this file's own.
const saved = process.env.XDG_CONFIG_HOME;
const configHome = tempDir('moat-git-prefetch-config-');
beforeAll(() => {
  process.env.XDG_CONFIG_HOME = configHome;
});
afterAll(() => {
  if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
  else process.env.XDG_CONFIG_HOME = saved;
});

/** A repository with an untracked file; trusted unless asked otherwise. */
function repo(trusted = true): string {
  const dir = tempDir('moat-git-prefetch-');
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  writeFileSync(`${dir}/draft.txt`, 'x\n');
  if (trusted) trustProject(dir, `${configHome}/moat`);
  return dir;
}

test('in a folder that is not trusted git does not run: the branch only, the status unknown', async () => {
  const dir = repo(false);
  expect(prefetchGitInfo(['-p', 'hi'], dir)).toBe(true);
  expect(await gitInfoOf(dir)).toEqual({ root: dir, branch: 'main', status: undefined });
});

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
