// atExit: the clean-up runs on a normal exit and on a signal nothing else handles, and moat still ends as killed by that signal.
import { describe, expect, test } from 'bun:test';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../support/temp.ts';

const MODULE = resolve(import.meta.dir, '../../src/util/exit-cleanup.ts');

/** A child that registers a clean-up removing `marker`, maybe its own handler for the signal, then says "ready" and waits. */
function script(marker: string, extra = ''): string {
  return `import { rmSync } from 'node:fs';
import { atExit } from ${JSON.stringify(MODULE)};
atExit(() => rmSync(${JSON.stringify(marker)}));
${extra}
setInterval(() => {}, 1000);
process.stdout.write('ready\\n');
`;
}

async function runAndSignal(dir: string, body: string, signal: NodeJS.Signals | undefined) {
  const file = join(dir, 'child.ts');
  writeFileSync(file, body);
  const child = Bun.spawn([process.execPath, file], { stdout: 'pipe', stderr: 'pipe' });
  const reader = child.stdout.getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toContain('ready');
  if (signal !== undefined) child.kill(signal);
  await child.exited;
  return { exitCode: child.exitCode, signalCode: child.signalCode };
}

describe('atExit', () => {
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const) {
    test(`${signal} with no other handler: the clean-up runs and the process ends killed by ${signal}`, async () => {
      const dir = tempDir();
      const marker = join(dir, 'marker');
      writeFileSync(marker, '');
      const end = await runAndSignal(dir, script(marker), signal);
      expect(existsSync(marker)).toBe(false);
      expect(end).toEqual({ exitCode: null, signalCode: signal });
    });
  }

  test("a handler of moat's own keeps its exit code; the clean-up runs at that exit", async () => {
    const dir = tempDir();
    const marker = join(dir, 'marker');
    writeFileSync(marker, '');
    const end = await runAndSignal(dir, script(marker, "process.on('SIGTERM', () => setTimeout(() => process.exit(143), 20));"), 'SIGTERM');
    expect(existsSync(marker)).toBe(false);
    expect(end).toEqual({ exitCode: 143, signalCode: null });
  });

  test('a clean-up dropped before the end does not run', async () => {
    const dir = tempDir();
    const marker = join(dir, 'marker');
    writeFileSync(marker, '');
    const body = `import { rmSync } from 'node:fs';
import { atExit } from ${JSON.stringify(MODULE)};
const drop = atExit(() => rmSync(${JSON.stringify(marker)}));
drop();
process.on('SIGTERM', () => process.exit(0));
process.stdout.write('ready\\n');
setInterval(() => {}, 1000);
`;
    const end = await runAndSignal(dir, body, 'SIGTERM');
    expect(existsSync(marker)).toBe(true);
    expect(end.exitCode).toBe(0);
  });
});
