import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bashTool } from '../../../src/tools/builtin/index.ts';
import type { ToolDisplay } from '../../../src/tools/index.ts';
import { makeContext, removeDir, runTool, tempDir, type TestContext } from '../tool-context.ts';
import { waitGone } from '../../support/process-gone.ts';
import { waitUntil } from '../../support/run-moat.ts';

let dir: string;
let ctx: TestContext;
beforeEach(() => {
  dir = tempDir();
  ctx = makeContext(dir);
});
afterEach(() => removeDir(dir));

function withoutDuration(d: ToolDisplay | undefined): unknown {
  if (d?.type !== 'command') return d;
  const { durationMs, ...rest } = d;
  expect(durationMs).toBeGreaterThanOrEqual(0);
  return rest;
}

describe('bash', () => {
  test('runs in ctx.cwd with stdout and stderr merged in order', async () => {
    const result = await runTool(bashTool, { command: 'pwd; echo out; echo err >&2; echo out2' }, ctx);
    expect({ ...result, display: withoutDuration(result.display) }).toEqual({
      content: `${dir}\nout\nerr\nout2`,
      isError: false,
      display: { type: 'command', command: 'pwd; echo out; echo err >&2; echo out2', exitCode: 0, output: `${dir}\nout\nerr\nout2\n` },
    });
  });

  test('a non-zero exit is a result marked isError that says the code', async () => {
    const result = await runTool(bashTool, { command: 'echo failing; exit 3' }, ctx);
    expect([result.content, result.isError]).toEqual(['failing\n\nExit code 3', true]);
  });

  test('no output and no stdin', async () => {
    expect((await runTool(bashTool, { command: 'true' }, ctx)).content).toBe('(no output)');
    expect((await runTool(bashTool, { command: 'cat; echo done' }, ctx)).content).toBe('done');
  });

  test('caps output, keeping head and tail', async () => {
    const result = await runTool(bashTool, { command: "for i in $(seq 1 20000); do echo \"line $i\"; done" }, ctx);
    const text = result.content as string;
    expect(text.startsWith('line 1\nline 2\n')).toBe(true);
    expect(text.endsWith('line 19999\nline 20000')).toBe(true);
    expect(text).toMatch(/\n\n\[… \d+ characters of output cut …\]\n\n/);
    expect(text.length).toBeLessThan(30_200);
  });

  test('timeout kills the whole process group, background grandchildren included', async () => {
    const pidFile = join(dir, 'pid');
    const started = Date.now();
    const result = await runTool(bashTool, { command: `sleep 100 & echo $! > ${pidFile}; echo started; wait`, timeout: 500 }, ctx);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.isError).toBe(true);
    expect(result.content).toBe('started\n\nCommand timed out after 0.5s and was stopped. Raise timeout (max 600000) if it needs longer.');
    expect(result.display).toMatchObject({ type: 'command', timedOut: true });
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    expect(await waitGone(grandchild, 3000)).toBe(true);
  });

  test('abort kills the process group', async () => {
    const pidFile = join(dir, 'pid');
    const controller = new AbortController();
    const aborting = makeContext(dir, { signal: controller.signal });
    const pending = bashTool.execute({ command: `sleep 100 & echo $! > ${pidFile}; wait` }, aborting);
    // Abort once the command is running: its background child has written its pid.
    await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 10_000, 'the command to start');
    controller.abort();
    const result = await pending;
    expect([result.content, result.isError]).toEqual(['(no output)\n\nCommand aborted by the user.', true]);
    expect(await waitGone(Number(readFileSync(pidFile, 'utf8')), 3000)).toBe(true);
  });

  test('background processes left behind do not hang the call and are stopped', async () => {
    const pidFile = join(dir, 'pid');
    const started = Date.now();
    const result = await runTool(bashTool, { command: `sleep 100 & echo $! > ${pidFile}; echo bye` }, ctx);
    expect(result.content).toBe('bye');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await waitGone(Number(readFileSync(pidFile, 'utf8')), 3000)).toBe(true);
  });

  test('streams the output tail while running', async () => {
    await runTool(bashTool, { command: 'echo first; sleep 0.4; echo second' }, ctx);
    const live = ctx.updates.filter((u) => u.type === 'command');
    expect(live.length).toBeGreaterThanOrEqual(1);
    expect(live[0]).toMatchObject({ type: 'command', exitCode: null, output: 'first\n' });
  });

  test('intent: Bash rule, the command as subject', () => {
    expect(bashTool.intent({ command: 'npm test', description: 'Run tests' }, { cwd: dir, roots: [dir] })).toEqual({
      ruleName: 'Bash',
      subject: 'npm test',
      paths: [],
      summary: 'Run tests',
      cwd: dir,
    });
    expect(bashTool.intent({ command: 'make', sandbox: 'workspace-write' }, { cwd: dir, roots: [dir] })).toMatchObject({ sandboxRequest: 'workspace-write' });
  });
});
