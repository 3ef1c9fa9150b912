/**
 * End to end: sub-agents and worktrees through the compiled dist/moat, with
 * real temporary git repositories and the fake model server. Parallel
 * agents' requests arrive in no fixed order, so each conversation's replies
 * are routed by its first user message. Run `bun run build` first.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { OutputLine } from '../../src/print/schema.ts';
import { branches, gitOut, makeRepo, status, write } from '../agent/subagents/temp-repo.ts';
import { firstUserText, reply, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { serveFakeAnthropic } from '../support/fake-anthropic-suite.ts';
import { makeSandbox, runMoat, spawnMoat, waitUntil, type Sandbox } from '../support/run-moat.ts';

let server: FakeAnthropic;
let sb: Sandbox;
let repo: string;

serveFakeAnthropic((s) => (server = s));
beforeEach(() => {
  sb = makeSandbox(server.url);
  repo = makeRepo({ 'a.txt': 'alpha\n', 'b.txt': 'beta\n' }, sb.cwd);
  server.requests.length = 0;
});
afterEach(() => {
  expect(server.remaining()).toBe(0);
});

const moat = (args: string[], cwd = repo) => runMoat(args, { cwd, env: sb.env });
const requestsOf = (marker: string) => server.requests.map((r, i) => ({ i, body: r.body })).filter((r) => firstUserText(r.body).includes(marker));
const lastResultText = (marker: string, n: number) => {
  const body = requestsOf(marker)[n]!.body as { messages: { content: { type: string; content?: unknown }[] }[] };
  return body.messages
    .at(-1)!
    .content.filter((c) => c.type === 'tool_result')
    .map((c) => (typeof c.content === 'string' ? c.content : (c.content as { text: string }[]).map((p) => p.text).join('\n')))
    .join('\n\n');
};
/** The fields sub-agent lines carry (result lines carry none of them). */
interface Tagged {
  type: string;
  session_id: string;
  agent_id?: string;
  parent_id?: string;
  parent_tool_use_id?: string | null;
}
const alive = (pattern: string) => Bun.spawnSync(['pgrep', '-f', pattern]).exitCode === 0;

/** A sub-agent that reads `file` and replaces `from` with `to` in it. */
function editingAgent(marker: string, file: string, from: string, to: string): void {
  server.route(
    marker,
    // A pause first, so the two agents' conversations overlap in time.
    reply().wait(150).toolUse('Read', { file_path: file }),
    reply().toolUse('Edit', { file_path: file, old_string: from, new_string: to }),
    reply().text(`edited ${file}`),
  );
}

describe('parallel background sub-agents in worktrees', () => {
  test('each edits its own worktree; the user’s tree is unchanged until merge, which brings both', async () => {
    server.route(
      'PARALLEL',
      reply()
        .toolUse('Task', { description: 'Edit a', prompt: 'EDIT-A: change alpha to ALPHA in a.txt', run_in_background: true }, { id: 'toolu_task_a' })
        .toolUse('Task', { description: 'Edit b', prompt: 'EDIT-B: change beta to BETA in b.txt', run_in_background: true }, { id: 'toolu_task_b' }),
      reply().toolUse('TaskResult', {}),
      reply().text('both done'),
    );
    editingAgent('EDIT-A', 'a.txt', 'alpha', 'ALPHA');
    editingAgent('EDIT-B', 'b.txt', 'beta', 'BETA');
    const r = await moat(['-p', 'PARALLEL', '--permission-mode', 'acceptEdits', '--output-format', 'stream-json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);

    const lines = r.stdout.trim().split('\n').map((l) => OutputLine.parse(JSON.parse(l)));
    const init = lines[0]!;
    expect(lines.at(-1)).toMatchObject({ type: 'result', result: 'both done', session_id: init.session_id });
    // Started in parallel: in no fixed order.
    const started = lines
      .filter((l) => l.type === 'system' && l.subtype === 'subagent_started')
      .sort((x, y) => (x.parent_tool_use_id ?? '').localeCompare(y.parent_tool_use_id ?? ''));
    expect(started.map((l) => [l.parent_tool_use_id, l.parent_id, l.type === 'system' && l.subtype === 'subagent_started' && l.isolation])).toEqual([
      ['toolu_task_a', init.session_id, 'worktree'],
      ['toolu_task_b', init.session_id, 'worktree'],
    ]);
    const ids = started.map((l) => l.agent_id!);
    // Every line of a sub-agent names it, its parent session and the task call; the main session's lines name none.
    const tagged: Tagged[] = lines;
    for (const l of tagged.filter((x) => x.agent_id !== undefined)) {
      expect(ids).toContain(l.agent_id!);
      expect(l.parent_id).toBe(init.session_id);
      expect(l.parent_tool_use_id).toBe(l.agent_id === ids[0] ? 'toolu_task_a' : 'toolu_task_b');
      expect(l.session_id).not.toBe(init.session_id);
    }
    // Assistant lines are one per content block; count messages by their id.
    const messages = (agent: string | undefined) => new Set(lines.flatMap((l) => (l.type === 'assistant' && l.agent_id === agent ? [l.message.id] : []))).size;
    expect(messages(ids[0])).toBe(3);
    expect(messages(undefined)).toBe(3);
    const finished = lines.filter((l) => l.type === 'system' && l.subtype === 'subagent_finished');
    expect(finished.map((l) => l.type === 'system' && l.subtype === 'subagent_finished' && [l.status, l.worktree?.changed_files])).toEqual(
      expect.arrayContaining([
        ['done', [{ path: 'a.txt', status: 'M', added: 1, removed: 1 }]],
        ['done', [{ path: 'b.txt', status: 'M', added: 1, removed: 1 }]],
      ]) as unknown as never[],
    );

    // They ran at the same time: each began before the other finished.
    const a = requestsOf('EDIT-A').map((x) => x.i);
    const b = requestsOf('EDIT-B').map((x) => x.i);
    expect(Math.max(a[0]!, b[0]!)).toBeLessThan(Math.min(a.at(-1)!, b.at(-1)!));

    // The user's tree is exactly as it was; each branch holds exactly its agent's edit.
    expect(status(repo)).toBe('');
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('alpha\n');
    const branchOf = (id: string) => branches(repo).find((x) => x.startsWith(`moat/${id}-`))!;
    expect(gitOut(repo, ['diff', '--name-only', 'main', branchOf(ids[0]!)])).toBe('a.txt');
    expect(gitOut(repo, ['diff', '--name-only', 'main', branchOf(ids[1]!)])).toBe('b.txt');
    expect(lastResultText('PARALLEL', 2)).toContain(`moat worktrees merge ${ids[0]}`);

    const list = await moat(['worktrees', 'list']);
    const rows = list.stdout.trim().split('\n').map((l) => l.split(/\s+/).slice(0, 2).join(' '));
    expect(rows.sort()).toEqual([`${ids[0]} ready`, `${ids[1]} ready`].sort());
    const diff = await moat(['worktrees', 'diff', ids[0]!]);
    expect(diff.stdout).toContain('-alpha\n+ALPHA');

    for (const id of ids) {
      const m = await moat(['worktrees', 'merge', id!]);
      expect(m.code).toBe(0);
      expect(m.stdout).toContain('merged moat/');
    }
    expect([readFileSync(join(repo, 'a.txt'), 'utf8'), readFileSync(join(repo, 'b.txt'), 'utf8')]).toEqual(['ALPHA\n', 'BETA\n']);
    expect(status(repo)).toBe('');

    for (const id of ids) expect((await moat(['worktrees', 'rm', id!])).code).toBe(0);
    expect(branches(repo)).toEqual(['main']);
    expect(existsSync(join(repo, '.moat', 'worktrees', ids[0]!))).toBe(false);
  });

  test('a merge conflict is reported and leaves the repository recoverable', async () => {
    server.route('CONFLICT', reply().toolUse('Task', { description: 'Edit a', prompt: 'EDIT-C: change alpha' }), reply().text('done'));
    editingAgent('EDIT-C', 'a.txt', 'alpha', 'from the agent');
    expect((await moat(['-p', 'CONFLICT', '--permission-mode', 'acceptEdits'])).code).toBe(0);
    write(repo, 'a.txt', 'from the user\n');
    gitOut(repo, ['commit', '--quiet', '-am', 'user edit']);
    const head = gitOut(repo, ['rev-parse', 'HEAD']);
    const [id] = (await moat(['worktrees', 'list'])).stdout.trim().split(/\s+/);

    const m = await moat(['worktrees', 'merge', id!]);
    expect(m.code).toBe(1);
    expect(m.stderr).toContain('stopped with conflicts in:\n  a.txt\n');
    expect(m.stderr).toContain('git merge --abort');
    expect(gitOut(repo, ['status'])).toContain('You have unmerged paths');
    gitOut(repo, ['merge', '--abort']);
    expect(gitOut(repo, ['rev-parse', 'HEAD'])).toBe(head);
    expect(status(repo)).toBe('');
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('from the user\n');
  });
});

describe('moat -p --worktree', () => {
  test('on a dirty repository: the user’s files stay untouched; the work lands on a branch that is printed', async () => {
    write(repo, 'a.txt', 'alpha, edited by the user\n');
    write(repo, 'scratch.txt', 'untracked\n');
    const before = status(repo);
    server.script(
      reply().toolUse('Read', { file_path: 'b.txt' }),
      reply().toolUse('Edit', { file_path: 'b.txt', old_string: 'beta', new_string: 'BETA' }),
      reply().text('changed b'),
    );
    const r = await moat(['-p', 'Uppercase beta', '--worktree', '--permission-mode', 'acceptEdits']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('changed b\n');
    const m = /^moat: 1 file changed on branch (moat\/([0-9a-f]{8})-uppercase-beta) \(worktree (.+)\); merge with: moat worktrees merge \2\n$/.exec(r.stderr);
    expect(m).not.toBeNull();
    const [, branch, , path] = m!;
    expect(path).toBe(join(repo, '.moat', 'worktrees', m![2]!));
    expect(status(repo)).toBe(before);
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('alpha, edited by the user\n');
    expect(readFileSync(join(repo, 'b.txt'), 'utf8')).toBe('beta\n');
    expect(readFileSync(join(repo, 'scratch.txt'), 'utf8')).toBe('untracked\n');
    expect(gitOut(repo, ['diff', 'main', branch!])).toContain('-beta\n+BETA');
    expect(gitOut(repo, ['log', '-1', '--format=%s', branch!])).toBe('Uppercase beta');
    // The session worked in the worktree.
    const system = JSON.stringify((server.requests[0]!.body as { system: unknown }).system);
    expect(system).toContain(`Working folder: ${path}`);
  });

  test('json output carries the worktree; nothing changed means no branch is left', async () => {
    server.script(reply().text('nothing to do'));
    const r = await moat(['-p', 'Look only', '--worktree', '--output-format', 'json']);
    expect(r.code).toBe(0);
    const result = JSON.parse(r.stdout) as { worktree: { branch: string; changed_files: unknown[] } };
    expect(result.worktree).toMatchObject({ changed_files: [], diff_stat: '' });
    expect(result.worktree.branch).toMatch(/^moat\/[0-9a-f]{8}-look-only$/);
    expect(branches(repo)).toEqual(['main']);
    expect(gitOut(repo, ['worktree', 'list']).split('\n').length).toBe(1);
  });

  test('outside a git repository it is refused in one line', async () => {
    const r = await moat(['-p', 'x', '--worktree'], sb.home);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`moat: --worktree needs a git repository, and ${sb.home} is not inside one\n`);
  });
});

describe('stopping background sub-agents', () => {
  test('moat agents stop ID, from another process, stops one; moat exiting stops the rest cleanly', async () => {
    const marker = `sleep 26.${process.pid}`;
    server.route(
      'STOPPER',
      reply()
        .toolUse('Task', { description: 'Long one', prompt: 'LONG-1', run_in_background: true })
        .toolUse('Task', { description: 'Long two', prompt: 'LONG-2', run_in_background: true }),
      // Never answered: moat is interrupted while this call waits.
      reply().toolUse('TaskResult', { timeout_ms: 60_000 }),
    );
    server.route('LONG-1', reply().toolUse('Write', { file_path: 'one.txt', content: 'one\n' }), reply().toolUse('Bash', { command: `${marker}1` }));
    server.route('LONG-2', reply().toolUse('Bash', { command: `${marker}2` }));
    const proc = spawnMoat(['-p', 'STOPPER', '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash(sleep:*)'], { cwd: repo, env: sb.env });
    await waitUntil(() => alive(`${marker}1`) && alive(`${marker}2`), 15_000, 'both agents to run their command');

    const ps = await moat(['agents', 'ps']);
    const rows = ps.stdout.trim().split('\n');
    expect(rows.length).toBe(2);
    const ids = ['Long one', 'Long two'].map((d) => rows.find((l) => l.endsWith(d))!.split(/\s+/)[0]!);
    const stop = await moat(['agents', 'stop', ids[0]!]);
    expect(stop).toMatchObject({ code: 0, stdout: `stopped sub-agent ${ids[0]}\n` });
    expect(alive(`${marker}1`)).toBe(false);
    expect(alive(`${marker}2`)).toBe(true);

    // The parent was waiting for both; with one stopped it still waits for the other. Interrupt moat itself.
    proc.kill('SIGINT');
    expect(await proc.exited).toBe(130);
    expect(alive(`${marker}2`)).toBe(false);
    expect((await moat(['agents', 'ps'])).stdout).toBe('no sub-agents are running\n');
    // The stopped agent's write is committed on its branch; the other changed nothing and left nothing behind.
    const list = (await moat(['worktrees', 'list'])).stdout.trim().split('\n');
    expect(list.length).toBe(1);
    expect(list[0]).toContain(ids[0]!);
    expect(list[0]).toContain('ready');
    expect(status(repo)).toBe('');
    expect(existsSync(join(repo, 'one.txt'))).toBe(false);
  });
});
