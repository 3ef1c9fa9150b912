/**
 * End to end: a `Read(.env)` deny rule on a file git tracks. The rule keeps
 * the tools away from the file, not git's committed copy, and moat says so
 * once at start-up. Run `bun run build` first.
 */
import { expect, test } from 'bun:test';
import { makeRepo } from '../agent/subagents/temp-repo.ts';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { makeSandbox, runMoat } from '../support/run-moat.ts';

let server: FakeAnthropic;

serveFakeAnthropic((s) => (server = s));

test('a Read deny rule matching a tracked file: one line at start-up; none for an untracked one', async () => {
  const sb = makeSandbox(server.url);
  const repo = makeRepo({ '.env': 'API_TOKEN=committed-secret\n', 'a.txt': 'a\n' }, sb.cwd);
  server.script(reply().text('ok'), reply().text('ok'));
  const r = await runMoat(['-p', 'hello', '--disallowedTools', 'Read(.env)'], { cwd: repo, env: sb.env });
  expect(r).toEqual({
    code: 0,
    stdout: 'ok\n',
    stderr:
      'moat: Read deny rules hide a file git tracks (.env): the tools and the sandbox refuse it, but the committed copy stays readable (git show HEAD:.env); take secrets out of the repository\n',
  });
  const untracked = await runMoat(['-p', 'hello', '--disallowedTools', 'Read(secrets.txt)'], { cwd: repo, env: sb.env });
  expect(untracked).toEqual({ code: 0, stdout: 'ok\n', stderr: '' });
});
