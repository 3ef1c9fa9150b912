/**
 * Sub-agents in the compiled binary's interactive UI (tmux), against the fake
 * model server: a foreground agent's card shows its live status then its
 * answer; a background worktree agent edits a file on its branch, `/agents`
 * merges it into the user's tree. Conversations are routed by their first
 * user message, since parent and child requests interleave. Build first.
 */
import { expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRepo } from '../agent/subagents/temp-repo.ts';
import { reply } from '../support/fake-anthropic.ts';
import { makeSandbox, MOAT_BIN, type Sandbox } from '../support/run-moat.ts';
import { TmuxSession } from '../support/tmux.ts';
import { tuiSuite } from '../support/tui-suite.ts';

const BIN = process.env.MOAT_TUI_BIN ?? MOAT_BIN;
const suite = tuiSuite(BIN);

function launch(sb: Sandbox, cwd: string): TmuxSession {
  const env = { ...sb.env };
  delete env.NO_COLOR;
  const s = new TmuxSession(`${BIN}; echo "EXIT=$?"; sleep 60`, { cols: 110, rows: 32, cwd, env });
  suite.track(s);
  return s;
}

async function prompt(s: TmuxSession, text: string): Promise<void> {
  await s.typeAndWait(text);
  s.keys('Enter');
}

test('a foreground sub-agent: its card shows live status, then its answer', async () => {
  const sb = makeSandbox(suite.server.url);
  const notes = join(sb.cwd, 'notes.txt');
  writeFileSync(notes, 'the answer is 42\n');
  suite.server.route('FG-MAIN', reply().toolUse('Task', { description: 'Read the notes', prompt: 'FG-CHILD: what does notes.txt say?', tools: ['read'] }), reply().text('The sub-agent found 42.'));
  // Pauses keep each state on screen long enough to be seen.
  suite.server.route('FG-CHILD', reply().wait(1200).toolUse('Read', { file_path: notes }), reply().wait(1500).text('notes.txt says the answer is 42.'));
  const s = launch(sb, sb.cwd);
  await s.waitFor('Ask moat');
  await prompt(s, 'FG-MAIN: ask a sub-agent');
  // Live: the card, then its status line with the tool it calls and its counters.
  await s.waitFor('● Agent(Read the notes)', { timeoutMs: 10_000 });
  await s.waitFor(/⎿ {2}thinking · last Read\(notes\.txt\) · 2 turns · [\d.k]+ tokens · /, { timeoutMs: 10_000 });
  await s.waitFor('The sub-agent found 42.', { timeoutMs: 15_000 });
  const screen = s.screen({ history: true });
  expect(screen).toMatch(/⎿ {2}Done · 2 turns · /);
  expect(screen).toContain('notes.txt says the answer is 42.');
  expect(suite.server.remaining()).toBe(0);
}, 40_000);

test('a background worktree agent edits on its branch; /agents merges it into the working tree', async () => {
  const sb = makeSandbox(suite.server.url);
  const repo = makeRepo({ 'a.txt': 'alpha\n' }, sb.cwd);
  suite.server.route(
    'BG-MAIN',
    reply().toolUse('Task', { description: 'Edit a', prompt: 'BG-EDIT: change alpha to ALPHA in a.txt', run_in_background: true }),
    reply().text('Started the edit in the background.'),
  );
  suite.server.route(
    'BG-EDIT',
    reply().wait(800).toolUse('Read', { file_path: 'a.txt' }),
    reply().wait(800).toolUse('Edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'ALPHA' }),
    reply().text('edited a.txt'),
  );
  const s = launch(sb, repo);
  await s.waitFor('Ask moat');
  // Edits without asking: the background agent's parent is idle by the time it edits, so nobody could be asked.
  s.keys('BTab');
  await s.waitFor('accept edits');
  await prompt(s, 'BG-MAIN: edit in the background');
  await s.waitFor('Running in the background as agent', { timeoutMs: 10_000 });
  await s.waitFor('Started the edit in the background.', { timeoutMs: 10_000 });
  // The run is over; the agent's card goes on below, then its result with the branch and the file.
  await s.waitFor(/Branch moat\/\w+-edit-a: 1 file \+1 -1/, { timeoutMs: 15_000, history: true });
  await s.waitFor('edited a.txt', { history: true });
  expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('alpha\n');

  await prompt(s, '/agents');
  await s.waitFor('choose one to stop it', { timeoutMs: 10_000 });
  await s.waitFor(/❯ \w+ {2}Edit a {2}ready · 1 file \+1 -1/);
  s.keys('Enter');
  await s.waitFor('Merge into the current branch');
  s.keys('Down');
  await s.waitFor(/❯ Merge into the current branch/);
  s.keys('Enter');
  await s.waitFor(/Merged moat\/\w+-edit-a into the current branch\./, { timeoutMs: 10_000 });
  expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('ALPHA\n');
  expect(suite.server.remaining()).toBe(0);

  s.keys('C-c');
  await s.waitFor('Press Ctrl-C again');
  s.keys('C-c');
  expect(await s.waitFor(/EXIT=\d+/)).toContain('EXIT=0');
}, 60_000);

test('moat exits cleanly with a background agent still running: it is stopped and its worktree kept', async () => {
  const sb = makeSandbox(suite.server.url);
  const repo = makeRepo({ 'a.txt': 'alpha\n' }, sb.cwd);
  suite.server.route('SLOW-MAIN', reply().toolUse('Task', { description: 'Slow edit', prompt: 'SLOW-EDIT: edit', run_in_background: true }), reply().text('Off it goes.'));
  suite.server.route('SLOW-EDIT', reply().wait(60_000).text('never'));
  const s = launch(sb, repo);
  await s.waitFor('Ask moat');
  await prompt(s, 'SLOW-MAIN: start a slow one');
  await s.waitFor('Off it goes.', { timeoutMs: 10_000 });
  await s.waitFor(/● Agent\(Slow edit\) · background · worktree\n {2}⎿ {2}\S/);
  s.keys('C-c');
  await s.waitFor('Press Ctrl-C again');
  s.keys('C-c');
  const screen = await s.waitFor(/EXIT=\d+/, { timeoutMs: 15_000 });
  expect(screen).toContain('moat: stopping 1 sub-agent');
  expect(screen).toContain('EXIT=0');
  // It changed nothing: its worktree and branch were removed when it stopped; the user's tree is untouched.
  expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('alpha\n');
  const branches = Bun.spawnSync(['git', 'branch', '--format=%(refname:short)'], { cwd: repo }).stdout.toString().trim();
  expect(branches).toBe('main');
  // Its request was cut off, not answered.
  suite.server.requests.length = 0;
}, 40_000);
