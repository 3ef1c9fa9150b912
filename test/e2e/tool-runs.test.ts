/** `[tools.<name>] timeout` from the config file reaches the tool runner in dist/moat. */
import { expect, test } from 'bun:test';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { makeSandbox, runMoat } from '../support/run-moat.ts';

let server: FakeAnthropic;
serveFakeAnthropic((s) => (server = s));

test('[tools.Bash] timeout = "1s" stops a 20 s command after a second and tells the model', async () => {
  const sb = makeSandbox(server.url);
  try {
    mkdirSync(join(sb.env.XDG_CONFIG_HOME ?? '', 'moat'), { recursive: true });
    writeFileSync(join(sb.env.XDG_CONFIG_HOME ?? '', 'moat', 'config.toml'), '[tools.Bash]\ntimeout = "1s"\n');
    server.script(reply().toolUse('Bash', { command: 'sleep 20.25' }).stop('tool_use'), reply().text('gave up'));
    const started = performance.now();
    const r = await runMoat(['-p', 'wait', '--allowedTools', 'Bash(sleep:*)'], { cwd: sb.cwd, env: sb.env });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(r).toMatchObject({ code: 0, stdout: 'gave up\n' });
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('Bash timed out after 1 s ([tools.Bash] timeout).');
  } finally {
    rmSync(dirname(sb.cwd), { recursive: true, force: true });
  }
}, 30_000);
