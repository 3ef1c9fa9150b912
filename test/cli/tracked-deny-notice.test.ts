/** Read deny rules against files git tracks: one line naming them, git not run when there is no such rule. */
import { expect, test } from 'bun:test';
import { trackedDenyNotice } from '../../src/cli/tracked-deny-notice.ts';
import { parseRuleList } from '../../src/tools/index.ts';
import { makeRepo, write } from '../agent/subagents/temp-repo.ts';

test('a Read deny rule matching tracked files is named; untracked matches and Edit rules are not', async () => {
  const repo = makeRepo({ '.env': 'KEY=1\n', 'config/secrets.json': '{}\n', 'a.txt': 'a\n' });
  write(repo, 'local.env', 'untracked\n');
  const settings = (deny: string[]) => ({ deny: parseRuleList(deny), projectRoot: repo, home: '/nonexistent-home', cwd: repo });
  expect(await trackedDenyNotice(settings(['Read(.env)']))).toBe(
    'Read deny rules hide a file git tracks (.env): the tools and the sandbox refuse it, but the committed copy stays readable (git show HEAD:.env); take secrets out of the repository',
  );
  expect(await trackedDenyNotice(settings(['Read(.env)', 'Read(config/**)', 'Read(*.env)']))).toBe(
    'Read deny rules hide 2 files git tracks (.env, config/secrets.json): the tools and the sandbox refuse them, but the committed copies stay readable (git show HEAD:.env); take secrets out of the repository',
  );
  expect(await trackedDenyNotice(settings(['Read(local.env)']))).toBeUndefined();
  expect(await trackedDenyNotice(settings(['Edit(.env)', 'Bash(rm:*)']))).toBeUndefined();
});
