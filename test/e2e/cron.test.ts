/**
 * `moat cron` end to end with the compiled binary against the fake model
 * server: adding (and refusing a bad expression), running a job now as its own
 * -p session, its logs, a run stopped by its timeout, one scheduler per
 * database, and the model's Schedule tool behind permission.
 */
import { describe, expect, test } from 'bun:test';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { runMoat, spawnMoat, waitUntil, type Sandbox } from '../support/run-moat.ts';

let server: FakeAnthropic;
let sb: Sandbox;

serveFakeAnthropic((s) => (server = s), (s) => (sb = s));

const moat = (args: string[]) => runMoat(args, { cwd: sb.cwd, env: sb.env });

describe('moat cron', () => {
  test('a bad expression is one line naming the field, exit 2; nothing is stored', async () => {
    const bad = await moat(['cron', 'add', '61 * * * *', 'check the build']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('moat: invalid minute "61" in cron expression "61 * * * *" (fields: minute hour day-of-month month day-of-week)\n');
    const zone = await moat(['cron', 'add', '0 9 * * *', 'x', '--tz', 'Mars/Olympus']);
    expect(zone).toMatchObject({ code: 2, stderr: 'moat: unknown time zone "Mars/Olympus" (an IANA name such as Europe/Berlin or America/New_York)\n' });
    const timeout = await moat(['cron', 'add', '0 9 * * *', 'x', '--timeout', 'soon']);
    expect(timeout.code).toBe(2);
    expect((await moat(['cron', 'list'])).stdout).toContain('No scheduled jobs.');
  });

  test('add, list, run now as a saved -p session, logs; pause, resume, rm', async () => {
    const add = await moat(['cron', 'add', '0 9 * * 1-5', 'summarise the repo', '--name', 'daily', '--tz', 'Europe/Berlin', '--max-turns', '3', '--timeout', '10m']);
    expect(add.code).toBe(0);
    expect(add.stdout).toMatch(/^Added daily: "0 9 \* \* 1-5" \(Europe\/Berlin\), next run \d{4}-\d\d-\d\d (07|08):00Z, in /);
    expect(add.stdout).toContain('No scheduler is running');
    const list = await moat(['cron', 'list']);
    expect(list.stdout).toContain('daily  "0 9 * * 1-5" Europe/Berlin  next ');
    expect(list.stdout).toContain('never run');

    server.script(reply().text('The repo is fine.'));
    const run = await moat(['cron', 'run', 'daily']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/ ok\s+\d+\.\d s \$\d\.\d{4} session [0-9a-f]{8}/);
    expect(run.stdout).toEndWith('\nThe repo is fine.\n');
    // The run was a -p session with the job's flags: its prompt, its turn cap.
    expect(JSON.stringify(server.requests[0]?.body)).toContain('summarise the repo');
    const logs = await moat(['cron', 'logs', 'daily']);
    const session = /session ([0-9a-f]{8})/.exec(logs.stdout)?.[1] ?? '';
    expect(logs.stdout).toContain(' ok ');
    const shown = await moat(['sessions', 'show', session]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('The repo is fine.');

    expect((await moat(['cron', 'pause', 'daily'])).stdout).toBe('Paused daily.\n');
    expect((await moat(['cron', 'list'])).stdout).toContain('daily  "0 9 * * 1-5" Europe/Berlin  paused');
    expect((await moat(['cron', 'resume', 'daily'])).stdout).toMatch(/^Resumed daily: next run /);
    expect((await moat(['cron', 'rm', 'daily'])).stdout).toBe('Removed daily.\n');
    expect(await moat(['cron', 'run', 'daily'])).toMatchObject({ code: 2, stderr: 'moat: no scheduled job named daily (moat cron list shows them)\n' });
  }, 30_000);

  test('a run past its --timeout is stopped and recorded as timed out', async () => {
    expect((await moat(['cron', 'add', '* * * * *', 'think for a long time', '--name', 'slow', '--timeout', '1s'])).code).toBe(0);
    server.script(reply().wait(15_000).text('too late'));
    const started = performance.now();
    const run = await moat(['cron', 'run', 'slow']);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('timed_out');
    expect(run.stdout).toContain('stopped after its timeout (1 s)');
  }, 30_000);

  test('one scheduler per database: a second serve says who holds it (exit 2); SIGTERM stops the first cleanly', async () => {
    const first = spawnMoat(['cron', 'serve'], { cwd: sb.cwd, env: sb.env });
    let log = '';
    void (async () => {
      for await (const chunk of first.stderr) log += new TextDecoder().decode(chunk);
    })();
    await waitUntil(() => log.includes('moat cron: scheduling'), 10_000, 'the scheduler to start');
    const second = await moat(['cron', 'serve']);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(new RegExp(`^moat: another scheduler runs on this database: pid ${first.pid} on `));
    first.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(log).toContain('moat cron: stopped');
    // The lock went with it: the next serve starts.
    const again = spawnMoat(['cron', 'serve'], { cwd: sb.cwd, env: sb.env });
    let log2 = '';
    void (async () => {
      for await (const chunk of again.stderr) log2 += new TextDecoder().decode(chunk);
    })();
    await waitUntil(() => log2.includes('moat cron: scheduling'), 10_000, 'the second scheduler to start');
    again.kill('SIGTERM');
    expect(await again.exited).toBe(0);
  }, 30_000);

  test('serve fires a due job: every 2 seconds (croner\'s seconds field), each run a saved -p session', async () => {
    // Its own model server: a run still going when the scheduler stops must not leave replies for the next test.
    const own = await startFakeAnthropic();
    sb.env.ANTHROPIC_BASE_URL = own.url;
    expect((await moat(['cron', 'add', '*/2 * * * * *', 'tick', '--name', 'often'])).code).toBe(0);
    own.script(reply().text('tock 1'), reply().text('tock 2'), reply().text('tock 3'), reply().text('tock 4'));
    const serving = spawnMoat(['cron', 'serve'], { cwd: sb.cwd, env: sb.env });
    try {
      let ok = 0;
      const end = performance.now() + 15_000;
      while (ok < 2 && performance.now() < end) {
        await Bun.sleep(500);
        ok = ((await moat(['cron', 'logs', 'often'])).stdout.match(/ ok /g) ?? []).length;
      }
      expect(ok).toBeGreaterThanOrEqual(2);
    } finally {
      serving.kill('SIGTERM');
      await serving.exited;
      await own.close();
    }
    const logs = (await moat(['cron', 'logs', 'often'])).stdout;
    expect(logs).toContain('tock 1');
    expect(logs).toContain('tock 2');
  }, 30_000);

  test("the model's Schedule tool: denied in -p without a rule, creates the job with --allowedTools Schedule", async () => {
    const call = { action: 'create', cron: '30 7 * * *', task: 'hunt flaky tests', name: 'flaky' };
    server.script(reply().toolUse('Schedule', call).stop('tool_use'), reply().text('Could not.'));
    const denied = await moat(['-p', 'schedule it']);
    expect(denied.code).toBe(0);
    expect(JSON.stringify(server.requests[1]?.body)).toContain('is_error');
    expect((await moat(['cron', 'list'])).stdout).toContain('No scheduled jobs.');

    server.script(reply().toolUse('Schedule', call).stop('tool_use'), reply().text('Scheduled.'));
    const allowed = await moat(['-p', 'schedule it', '--allowedTools', 'Schedule']);
    expect(allowed).toMatchObject({ code: 0, stdout: 'Scheduled.\n' });
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain('Scheduled flaky: \\"30 7 * * *\\"');
    expect((await moat(['cron', 'list'])).stdout).toContain('flaky  "30 7 * * *"');
  }, 30_000);
});
