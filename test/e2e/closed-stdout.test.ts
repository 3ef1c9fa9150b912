/**
 * End to end: `moat -p … | head` — a reader that closes stdout early ends the
 * run quietly with exit 0, in text and stream-json output, as Claude Code does.
 */
import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { MOAT_BIN, makeSandbox } from '../support/run-moat.ts';

let server: FakeAnthropic;
serveFakeAnthropic((s) => (server = s));

// Far more than a pipe holds (64 KiB), so moat is still writing when head has gone.
const longAnswer = Array.from({ length: 3000 }, (_, i) => `line ${i} ${'x'.repeat(100)}`).join('\n');

for (const format of ['text', 'stream-json'] as const) {
  test(`${format}: a reader that leaves early ends the run with 0 and no error`, async () => {
    server.script(reply().text(longAnswer, { chunkSize: 4000 }));
    const sb = makeSandbox(server.url);
    const errFile = join(sb.home, 'stderr.txt');
    const codeFile = join(sb.home, 'code.txt');
    const args = format === 'text' ? '-p go' : '-p go --output-format stream-json --verbose --include-partial-messages';
    const shell = Bun.spawn(['bash', '-c', `{ "$MOAT" ${args} 2>"$ERRF"; echo $? >"$CODEF"; } | head -c 100`], {
      cwd: sb.cwd,
      env: { ...sb.env, MOAT: MOAT_BIN, ERRF: errFile, CODEF: codeFile },
      stdout: 'pipe',
    });
    const [shown] = await Promise.all([new Response(shell.stdout).text(), shell.exited]);
    expect(shown.length).toBe(100);
    expect({ code: readFileSync(codeFile, 'utf8').trim(), stderr: readFileSync(errFile, 'utf8') }).toEqual({ code: '0', stderr: '' });
  });
}
