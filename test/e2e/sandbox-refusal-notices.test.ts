/**
 * What the OS sandbox refuses a Bash command or a hook is said on stderr once,
 * even in quiet `-p` output, naming the path and the setting that allows it;
 * the run goes on. Against dist/moat with the scripted model.
 */
import { beforeEach, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { makeSandbox, runMoat, type Sandbox } from '../support/run-moat.ts';
import { removeLater } from '../support/temp.ts';

let server: FakeAnthropic;
let sb: Sandbox;
let outside: string;

serveFakeAnthropic((s) => (server = s));

beforeEach(() => {
  sb = makeSandbox(server.url);
  // Sandboxed commands may write the system temp folder; /var/tmp they may not.
  const root = removeLater(realpathSync(mkdtempSync(join('/var/tmp', 'moat-refusals-'))));
  const project = join(root, 'work');
  outside = join(root, 'outside');
  mkdirSync(project);
  mkdirSync(outside);
  sb = { ...sb, cwd: project };
});

const lines = (stderr: string, pattern: RegExp) => stderr.split('\n').filter((l) => pattern.test(l));

test("a Bash command's refused write is said once on stderr, with the setting that allows it; the run goes on", async () => {
  const target = join(outside, 'planted.txt');
  server.script(
    reply()
      .toolUse('Bash', { command: `echo a > ${target}`, sandbox: 'workspace-write' }, { id: 'toolu_1' })
      .toolUse('Bash', { command: `echo b > ${target}`, sandbox: 'workspace-write' }, { id: 'toolu_2' })
      .stop('tool_use'),
    reply().text('done'),
  );
  const r = await runMoat(['-p', 'go', '--permission-mode', 'acceptEdits'], { cwd: sb.cwd, env: sb.env });
  expect(r.stdout).toBe('done\n');
  expect(r.code).toBe(0);
  expect(existsSync(target)).toBe(false);
  const said = lines(r.stderr, /the sandbox refused Bash/);
  expect(said).toHaveLength(1);
  expect(said[0]).toContain(`write to ${target} refused`);
  expect(said[0]).toContain('[sandbox.filesystem] allow_write');
});

test("a hook's refused write is said once on stderr, naming the hook and what hooks may do", async () => {
  const target = join(outside, 'hook.txt');
  mkdirSync(join(sb.env.XDG_CONFIG_HOME!, 'moat'), { recursive: true });
  writeFileSync(join(sb.env.XDG_CONFIG_HOME!, 'moat', 'config.toml'), `[[hooks.UserPromptSubmit]]\ncommand = "echo x > ${target}; true"\n`);
  server.script(reply().text('first'), reply().text('second'));
  const r = await runMoat(['-p', 'go'], { cwd: sb.cwd, env: sb.env });
  expect(r.stdout).toBe('first\n');
  expect(existsSync(target)).toBe(false);
  const said = lines(r.stderr, /the sandbox refused a UserPromptSubmit hook/);
  expect(said).toHaveLength(1);
  expect(said[0]).toContain(`write to ${target} refused`);
  expect(said[0]).toContain('[sandbox.network] allow');
});
