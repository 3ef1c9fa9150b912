/**
 * End to end: a `Read(.env)` deny rule on a file git tracks. The rule keeps
 * the tools away from the file, not git's committed copy, and moat says so
 * once at start-up. Run `bun run build` first.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { makeRepo } from '../agent/subagents/temp-repo.ts';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { MOAT_BIN, makeSandbox, runMoat } from '../support/run-moat.ts';

let server: FakeAnthropic;

beforeAll(async () => {
  if (!existsSync(MOAT_BIN)) throw new Error('dist/moat is missing: run `bun run build` first');
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});

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
