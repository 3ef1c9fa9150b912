/** The compiled binary's TUI in tmux: Esc Esc opens the rewind list, choosing restores the files, the transcript shows the fork. */
import { expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply } from '../support/fake-anthropic.ts';
import { makeSandbox, MOAT_BIN } from '../support/run-moat.ts';
import { TmuxSession } from '../support/tmux.ts';
import { tuiSuite } from '../support/tui-suite.ts';

const suite = tuiSuite(MOAT_BIN);

test('Esc Esc opens the list; code and conversation back to before message 2; the fork is in the transcript', async () => {
  const sb = makeSandbox(suite.server.url);
  const file = join(sb.cwd, 'a.txt');
  writeFileSync(file, 'one\n');
  suite.server.script(
    reply().toolUse('Bash', { command: 'echo two > a.txt' }).stop('tool_use'),
    reply().text('First done.').stop('end_turn'),
    reply().toolUse('Bash', { command: 'echo three > a.txt' }).stop('tool_use'),
    reply().text('Second done.').stop('end_turn'),
  );
  const env: Record<string, string> = { ...sb.env };
  delete env.NO_COLOR;
  const s = suite.track(new TmuxSession(`${MOAT_BIN} --permission-mode acceptEdits --allowedTools Bash; sleep 60`, { cols: 120, rows: 40, cwd: sb.cwd, env }));
  await s.waitFor('Ask moat');
  await s.typeAndWait('make it two');
  s.keys('Enter');
  await s.waitFor('First done.');
  await s.typeAndWait('make it three');
  s.keys('Enter');
  await s.waitFor('Second done.');
  expect(readFileSync(file, 'utf8')).toBe('three\n');
  s.keys('Escape');
  s.keys('Escape');
  await s.waitFor('Rewind to just before which message?');
  expect(s.screen()).toContain('2. make it three');
  s.keys('Down');
  s.keys('Enter');
  await s.waitFor('Rewind to before message 2: what?');
  s.keys('Enter');
  await s.waitFor('conversation rewound to before message 2');
  expect(readFileSync(file, 'utf8')).toBe('two\n');
  expect(s.screen({ history: true })).toContain('Files put back to before message 2:');
  expect(s.screen({ history: true })).toMatch(/the old branch is session [0-9a-f]{8}/);
}, 60_000);
