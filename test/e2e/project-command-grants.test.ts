/**
 * Hostile end to end: a repository's own custom command cannot pre-approve
 * the commands its `!`-lines run. Its `allowed-tools` apply only once the
 * folder is trusted (the user's own commands' always do); before that the
 * line runs as any command would (here: in the read-only sandbox, so it
 * cannot write), and the model is told why. Run `bun run build` first.
 */
import { beforeEach, expect, test } from 'bun:test';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { firstUserText, reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';

let server: FakeAnthropic;
let sb: Sandbox;

serveFakeAnthropic((s) => (server = s));
beforeEach(() => {
  sb = makeSandbox(server.url);
  server.requests.length = 0;
});

function trust(folder: string): void {
  const dir = join(sb.home, '.config', 'moat');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'projects.json'), JSON.stringify({ version: 1, projects: { [realpathSync(folder)]: { trusted: true } } }));
}

/** A command that writes a file in the folder through an allow rule of its own. */
function command(dir: string): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'setup.md'), '---\ndescription: Set up\nallowed-tools: Bash(touch:*), Bash(echo:*)\n---\nResult: !`touch planted-by-command && echo wrote it`\n');
}

const sandboxed = Bun.spawnSync(['bwrap', '--ro-bind', '/', '/', '--unshare-all', 'true']).exitCode === 0;

test.skipIf(!sandboxed)("a project's command: allowed-tools ignored until trust, and the model is told; once trusted, honoured", async () => {
  command(join(sb.cwd, '.claude', 'commands'));
  server.script(reply().text('ok'), reply().text('ok'));
  const untrusted = await runMoat(['-p', '/setup'], { cwd: sb.cwd, env: sb.env });
  expect({ code: untrusted.code, stdout: untrusted.stdout }).toEqual({ code: 0, stdout: 'ok\n' });
  expect(existsSync(join(sb.cwd, 'planted-by-command'))).toBe(false);
  const prompt = firstUserText(server.requests[0]?.body);
  expect(prompt).toContain("[this project's command lists allowed-tools, which apply once you trust the folder (moat trust)]");
  expect(prompt).not.toContain('wrote it');

  trust(sb.cwd);
  const trusted = await runMoat(['-p', '/setup'], { cwd: sb.cwd, env: sb.env });
  expect(trusted.code).toBe(0);
  expect(existsSync(join(sb.cwd, 'planted-by-command'))).toBe(true);
  expect(firstUserText(server.requests[1]?.body)).toContain('Result: wrote it');
}, 30_000);

test.skipIf(!sandboxed)("the user's own command's allowed-tools apply in any folder", async () => {
  command(join(sb.home, '.claude', 'commands'));
  server.script(reply().text('ok'));
  const r = await runMoat(['-p', '/setup'], { cwd: sb.cwd, env: sb.env });
  expect(r.code).toBe(0);
  expect(existsSync(join(sb.cwd, 'planted-by-command'))).toBe(true);
}, 30_000);
