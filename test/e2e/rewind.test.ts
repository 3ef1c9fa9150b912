/** Checkpoints and `moat rewind` on dist/moat: agent changes (edit, sed -i, rm, new file, a sub-agent's) put back byte for byte and mode for mode. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { MOAT_BIN, makeSandbox, runMoat, spawnMoat, waitUntil, type Sandbox } from '../support/run-moat.ts';
import { treeState } from '../support/tree-state.ts';
import { makeRepo } from '../agent/subagents/temp-repo.ts';

let server: FakeAnthropic;
beforeAll(async () => {
  if (!existsSync(MOAT_BIN)) throw new Error('dist/moat is missing: run `bun run build` first');
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});

const SESSION = '11111111-2222-4333-8444-555555555555';
const moat = (sb: Sandbox, args: string[]) => runMoat(args, { cwd: sb.cwd, env: sb.env });
/** One user message of the session: the first creates it, the others resume it. */
async function say(sb: Sandbox, first: boolean, prompt: string): Promise<void> {
  const r = await moat(sb, ['-p', prompt, '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash', ...(first ? ['--session-id', SESSION] : ['--resume', SESSION])]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}

function seed(cwd: string): void {
  writeFileSync(join(cwd, 'a.txt'), 'alpha\nbeta\r\ngamma\n');
  writeFileSync(join(cwd, 'run.sh'), '#!/bin/sh\necho old\n');
  chmodSync(join(cwd, 'run.sh'), 0o755);
  writeFileSync(join(cwd, 'private.txt'), 'old secret\n');
  chmodSync(join(cwd, 'private.txt'), 0o600);
  mkdirSync(join(cwd, 'src', 'deep'), { recursive: true });
  writeFileSync(join(cwd, 'src', 'deep', 'c.txt'), 'to be removed\n');
}

describe('code rewinds', () => {
  test('an edit, a bash sed -i, a bash rm and a new file, each rewound to the tree before it (non-git folder)', async () => {
    const sb = makeSandbox(server.url);
    seed(sb.cwd);
    const states = [treeState(sb.cwd)];
    server.script(reply().toolUse('Read', { file_path: join(sb.cwd, 'a.txt') }).stop('tool_use'), reply().toolUse('Edit', { file_path: join(sb.cwd, 'a.txt'), old_string: 'beta', new_string: 'BETA' }).stop('tool_use'), reply().text('edited'));
    await say(sb, true, 'edit a.txt');
    states.push(treeState(sb.cwd));
    server.script(reply().toolUse('Bash', { command: "sed -i 's/old/new/' run.sh private.txt" }).stop('tool_use'), reply().text('sedded'));
    await say(sb, false, 'sed the script');
    states.push(treeState(sb.cwd));
    server.script(reply().toolUse('Bash', { command: 'rm -r src/deep/c.txt' }).stop('tool_use'), reply().text('removed'));
    await say(sb, false, 'remove c');
    states.push(treeState(sb.cwd));
    server.script(reply().toolUse('Write', { file_path: join(sb.cwd, 'new', 'made.txt'), content: 'fresh\n' }).stop('tool_use'), reply().text('written'));
    await say(sb, false, 'write a new file');
    states.push(treeState(sb.cwd));
    // Every step changed something.
    for (let i = 1; i < states.length; i++) expect(states[i]).not.toEqual(states[i - 1]);

    const list = await moat(sb, ['rewind']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('  1  edit a.txt');
    expect(list.stdout).toContain('a.txt +1 -1');
    expect(list.stdout).toContain('new/made.txt +1 -0');

    const dry = await moat(sb, ['rewind', '--to', '1', '--code', '--dry-run']);
    expect(dry.stdout).toContain('would change 5 files back to before message 1:\n  restore   a.txt\n  delete    new/made.txt\n  restore   private.txt\n  restore   run.sh\n  re-create src/deep/c.txt\n');
    expect(treeState(sb.cwd)).toEqual(states[4]!);

    for (const n of [4, 3, 2, 1]) {
      const r = await moat(sb, ['rewind', '--to', String(n), '--code']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(treeState(sb.cwd)).toEqual(states[n - 1]!);
    }
    // The empty folder the new file made went with it.
    expect(existsSync(join(sb.cwd, 'new'))).toBe(false);
  }, 60_000);

  test('a file changed outside moat since the checkpoint is not overwritten unless asked twice (--force)', async () => {
    const sb = makeSandbox(server.url);
    seed(sb.cwd);
    const before = treeState(sb.cwd);
    server.script(reply().toolUse('Bash', { command: "sed -i 's/alpha/ALPHA/' a.txt" }).stop('tool_use'), reply().text('done'));
    await say(sb, true, 'change a');
    writeFileSync(join(sb.cwd, 'a.txt'), 'the user wrote this\n');
    const edited = treeState(sb.cwd);
    const refused = await moat(sb, ['rewind', '--to', '1', '--code']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe("moat: not rewinding: a file was changed outside moat since the checkpoint (a.txt); ask again with --force to overwrite it\n");
    expect(treeState(sb.cwd)).toEqual(edited);
    const forced = await moat(sb, ['rewind', '--to', '1', '--code', '--force']);
    expect(forced.code).toBe(0);
    expect(treeState(sb.cwd)).toEqual(before);
  }, 60_000);

  test('a file over the size limit is left out, and the rewind says so', async () => {
    const sb = makeSandbox(server.url);
    mkdirSync(join(sb.env.XDG_CONFIG_HOME!, 'moat'), { recursive: true });
    writeFileSync(join(sb.env.XDG_CONFIG_HOME!, 'moat', 'config.toml'), '[checkpoints]\nmax_file_mb = 1\n');
    writeFileSync(join(sb.cwd, 'big.bin'), Buffer.alloc(2 * 1024 * 1024, 7));
    writeFileSync(join(sb.cwd, 'small.txt'), 'one\n');
    server.script(reply().toolUse('Bash', { command: 'echo two > small.txt && truncate -s 100 big.bin' }).stop('tool_use'), reply().text('done'));
    await say(sb, true, 'shrink');
    const r = await moat(sb, ['rewind', '--to', '1', '--code']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('left as it is: big.bin (2.0 MB, over the 1.0 MB checkpoint limit)');
    expect(readFileSync(join(sb.cwd, 'small.txt'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(sb.cwd, 'big.bin')).length).toBe(100);
  }, 60_000);
});

describe('sub-agents', () => {
  test("a sub-agent's changes in this folder are rewound with the message that started it", async () => {
    const sb = makeSandbox(server.url);
    seed(sb.cwd);
    const before = treeState(sb.cwd);
    server.route('DELEGATE', reply().toolUse('Task', { description: 'Write', prompt: 'SUB-WRITE: write sub.txt and edit a.txt', isolation: 'none' }).stop('tool_use'), reply().text('delegated'));
    server.route(
      'SUB-WRITE',
      reply().toolUse('Write', { file_path: join(sb.cwd, 'sub.txt'), content: 'from the sub-agent\n' }).stop('tool_use'),
      reply().toolUse('Bash', { command: "sed -i 's/gamma/GAMMA/' a.txt && chmod 644 run.sh" }).stop('tool_use'),
      reply().text('wrote'),
    );
    await say(sb, true, 'DELEGATE the work');
    expect(readFileSync(join(sb.cwd, 'sub.txt'), 'utf8')).toBe('from the sub-agent\n');
    expect(treeState(sb.cwd)).not.toEqual(before);
    const r = await moat(sb, ['rewind', '--to', '1', '--code']);
    expect(r.code).toBe(0);
    expect(treeState(sb.cwd)).toEqual(before);
  }, 60_000);
});

describe('changes made between messages', () => {
  test("a sub-agent's worktree merged with moat worktrees merge is rewound byte for byte and mode for mode, without --force", async () => {
    const sb = makeSandbox(server.url);
    const repo = makeRepo({ 'a.txt': 'alpha\nbeta\n', 'keep.sh': '#!/bin/sh\n' }, sb.cwd);
    chmodSync(join(repo, 'keep.sh'), 0o755);
    const inRepo = (args: string[]) => runMoat(args, { cwd: repo, env: sb.env });
    server.route('WORKTREE', reply().toolUse('Task', { description: 'Change', prompt: 'SUB-TREE: change files' }).stop('tool_use'), reply().text('delegated'));
    server.route(
      'SUB-TREE',
      reply().toolUse('Bash', { command: "sed -i 's/beta/BETA/' a.txt && printf 'new\\n' > made.sh && chmod 755 made.sh && chmod 644 keep.sh && git add -A && git commit -qm sub" }).stop('tool_use'),
      reply().text('changed'),
    );
    const r = await inRepo(['-p', 'WORKTREE: delegate', '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash', '--session-id', SESSION]);
    expect(r.code).toBe(0);
    const skip = ['.git', '.moat'];
    const beforeMerge = treeState(repo, skip);
    const id = /^([0-9a-f]{8})\s/.exec((await inRepo(['worktrees', 'list'])).stdout)?.[1];
    expect(id).toBeDefined();
    const merged = await inRepo(['worktrees', 'merge', id!]);
    expect(merged.code).toBe(0);
    expect(merged.stderr).toContain('checkpoint taken before the merge');
    const afterMerge = treeState(repo, skip);
    expect(afterMerge['made.sh']).toStartWith('file 0755 ');
    expect(afterMerge).not.toEqual(beforeMerge);
    // The merge is moat's change: no "changed outside moat" refusal.
    const back = await inRepo(['rewind', '--to', '1', '--code']);
    expect(back.stderr).toBe('');
    expect(back.code).toBe(0);
    expect(treeState(repo, skip)).toEqual(beforeMerge);
  }, 90_000);
});

describe("a custom command's !`cmd` lines in -p", () => {
  test('what they change is checkpointed with the message: a rewind to it puts the files back byte for byte; one a rule denies does not run', async () => {
    const sb = makeSandbox(server.url);
    writeFileSync(join(sb.cwd, 'a.txt'), 'alpha\r\nbeta\n');
    chmodSync(join(sb.cwd, 'a.txt'), 0o640);
    const before = treeState(sb.cwd);
    // A user command (its allowed-tools apply): one line writes two files, one a deny rule refuses.
    mkdirSync(join(sb.home, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(sb.home, '.claude', 'commands', 'stamp.md'), '---\nallowed-tools: Bash(sh:*)\n---\nStamped: !`sh -c "printf changed > a.txt && echo made > b.txt && echo ok"`\nDenied: !`touch denied.txt`\n');
    server.script(reply().text('seen'));
    const r = await moat(sb, ['-p', '/stamp', '--session-id', SESSION, '--disallowedTools', 'Bash(touch:*)']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(sb.cwd, 'a.txt'), 'utf8')).toBe('changed');
    expect(readFileSync(join(sb.cwd, 'b.txt'), 'utf8')).toBe('made\n');
    expect(existsSync(join(sb.cwd, 'denied.txt'))).toBe(false);
    const sentText = JSON.stringify(server.requests.at(-1)?.body);
    expect(sentText).toContain('Stamped: ok');
    expect(sentText).toMatch(/Denied: \[not run: [^\]]+\]/);

    const list = await moat(sb, ['rewind']);
    expect(list.stdout).toContain('  1  ');
    expect(list.stdout).toContain('b.txt +1 -0');
    const back = await moat(sb, ['rewind', '--to', '1', '--code']);
    expect(back.stderr).toBe('');
    expect(back.code).toBe(0);
    expect(treeState(sb.cwd)).toEqual(before);
  }, 60_000);

  test('each line goes through the permission check of a Bash call: a denied one is refused with the reason and listed in stream-json; an unlisted one runs read-only, as the model\'s call would', async () => {
    const sb = makeSandbox(server.url);
    writeFileSync(join(sb.cwd, 'keep.txt'), 'kept\n');
    mkdirSync(join(sb.home, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(sb.home, '.claude', 'commands', 'mixed.md'), '---\nallowed-tools: Bash(sh:*)\n---\nA: !`sh -c "echo fine"`\nB: !`touch denied.txt`\nC: !`rm keep.txt`\n');
    server.script(reply().text('seen'));
    const r = await moat(sb, ['-p', '/mixed', '--disallowedTools', 'Bash(touch:*)', '--output-format', 'stream-json', '--verbose']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(readFileSync(join(sb.cwd, 'keep.txt'), 'utf8')).toBe('kept\n');
    expect(existsSync(join(sb.cwd, 'denied.txt'))).toBe(false);
    const sentText = JSON.stringify(server.requests.at(-1)?.body);
    expect(sentText).toContain('A: fine');
    expect(sentText).toMatch(/B: \[not run: [^\]]+\]/);
    // Not allowed, not denied: held to the read-only sandbox, as the model's Bash call would be; it could not write.
    expect(sentText).toContain("C: rm: cannot remove 'keep.txt': Read-only file system");
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const result = lines.find((l) => l.type === 'result') as { permission_denials?: { tool_name: string; tool_use_id: string; tool_input: { command: string } }[] } | undefined;
    expect(result?.permission_denials?.map((d) => [d.tool_name, d.tool_input.command, d.tool_use_id.startsWith('cmd_')])).toEqual([
      ['Bash', 'touch denied.txt', true],
    ]);
  }, 60_000);
});

describe('conversation rewinds', () => {
  async function twoMessages(sb: Sandbox): Promise<void> {
    writeFileSync(join(sb.cwd, 'a.txt'), 'one\n');
    server.script(reply().toolUse('Bash', { command: 'echo two > a.txt' }).stop('tool_use'), reply().text('FIRST ANSWER'));
    await say(sb, true, 'FIRST PROMPT');
    server.script(reply().toolUse('Bash', { command: 'echo three > a.txt' }).stop('tool_use'), reply().text('SECOND ANSWER'));
    await say(sb, false, 'SECOND PROMPT');
  }

  test('conversation only: the old branch is kept as a session of its own; the files stay', async () => {
    const sb = makeSandbox(server.url);
    await twoMessages(sb);
    const r = await moat(sb, ['rewind', '--to', '2', '--conversation']);
    expect(r.code).toBe(0);
    const branch = /the old branch is session ([0-9a-f-]{36})/.exec(r.stdout)?.[1];
    expect(branch).toBeDefined();
    expect(readFileSync(join(sb.cwd, 'a.txt'), 'utf8')).toBe('three\n');
    const shown = (await moat(sb, ['sessions', 'show', SESSION])).stdout;
    expect(shown).toContain('FIRST ANSWER');
    expect(shown).not.toContain('SECOND PROMPT');
    expect(shown).toContain(`the old branch is session ${branch!}`);
    const old = (await moat(sb, ['sessions', 'show', branch!])).stdout;
    expect(old).toContain('SECOND ANSWER');
    expect(old).toContain(`This is a saved branch of session ${SESSION}`);
    // The session goes on from the rewound point: the model sees the first exchange only.
    server.script(reply().text('THIRD ANSWER'));
    await say(sb, false, 'THIRD PROMPT');
    const sent = JSON.stringify(server.requests.at(-1)?.body);
    expect(sent).toContain('FIRST ANSWER');
    expect(sent).not.toContain('SECOND');
  }, 60_000);

  test('both: files and conversation back to before message 1; code only leaves the conversation', async () => {
    const sb = makeSandbox(server.url);
    await twoMessages(sb);
    const code = await moat(sb, ['rewind', '--to', '2', '--code']);
    expect(code.code).toBe(0);
    expect(readFileSync(join(sb.cwd, 'a.txt'), 'utf8')).toBe('two\n');
    expect((await moat(sb, ['sessions', 'show', SESSION])).stdout).toContain('SECOND ANSWER');
    const both = await moat(sb, ['rewind', '--to', '1', '--both']);
    expect(both.code).toBe(0);
    expect(readFileSync(join(sb.cwd, 'a.txt'), 'utf8')).toBe('one\n');
    const shown = (await moat(sb, ['sessions', 'show', SESSION])).stdout;
    // The title stays; the transcript is empty again.
    expect(shown).not.toContain('FIRST ANSWER');
    expect(shown).toContain('Saved branches (conversation rewinds):\n- rewound at message 1');
    expect((await moat(sb, ['rewind'])).stdout).toContain('has no user messages');
  }, 60_000);
});

describe('faults', () => {
  test('kill -9 in the middle of a rewind leaves the old tree or the new one, never a mix', async () => {
    const sb = makeSandbox(server.url);
    mkdirSync(join(sb.cwd, 'many'));
    for (let i = 0; i < 300; i++) writeFileSync(join(sb.cwd, 'many', `f${i}.txt`), `old ${i}\n`);
    const old = treeState(sb.cwd);
    server.script(reply().toolUse('Bash', { command: 'for f in many/*.txt; do echo new > "$f"; done' }).stop('tool_use'), reply().text('done'));
    await say(sb, true, 'rewrite all');
    const changed = treeState(sb.cwd);
    expect(changed).not.toEqual(old);
    const proc = spawnMoat(['rewind', '--to', '1', '--code'], { cwd: sb.cwd, env: sb.env });
    // Killed once the rewind has begun writing its staged files.
    await waitUntil(() => readdirSync(join(sb.cwd, 'many')).some((n) => n.includes('.moat-rewind-')), 20_000, 'staged files');
    proc.kill(9);
    await proc.exited;
    // The next moat that opens the checkpoints finishes or undoes it.
    const after = await moat(sb, ['rewind']);
    expect(after.stderr).toBe('');
    expect(after.code).toBe(0);
    const now = treeState(sb.cwd);
    expect([JSON.stringify(old), JSON.stringify(changed)]).toContain(JSON.stringify(now));
    expect(readdirSync(join(sb.cwd, 'many')).filter((n) => n.includes('.moat-rewind-'))).toEqual([]);
  }, 90_000);

  test('a damaged shadow repository is one warning line; the session goes on', async () => {
    const sb = makeSandbox(server.url);
    writeFileSync(join(sb.cwd, 'a.txt'), 'one\n');
    const root = join(sb.env.XDG_DATA_HOME!, 'moat', 'checkpoints');
    server.script(reply().toolUse('Bash', { command: 'echo two > a.txt' }).stop('tool_use'), reply().text('done'));
    await say(sb, true, 'first');
    const [dir] = readdirSync(root).filter((n) => n !== 'last-retention');
    writeFileSync(join(root, dir!, 'HEAD'), 'garbage\n');
    writeFileSync(join(root, dir!, 'objects', 'info', 'alternates'), '/nonexistent\n');
    server.script(reply().toolUse('Bash', { command: 'echo three > a.txt' }).stop('tool_use'), reply().toolUse('Bash', { command: 'echo four > a.txt' }).stop('tool_use'), reply().text('went on'));
    const r = await moat(sb, ['-p', 'second', '--verbose', '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash', '--resume', SESSION]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('went on\n');
    expect(r.stderr.split('\n').filter((l) => l.includes('checkpoints are off'))).toHaveLength(1);
    expect(readFileSync(join(sb.cwd, 'a.txt'), 'utf8')).toBe('four\n');
  }, 60_000);
});

describe('stream-json (the Agent SDK)', () => {
  test('each replayed prompt carries its checkpoint id; rewind_files puts the files back (dry run first)', async () => {
    const sb = makeSandbox(server.url);
    writeFileSync(join(sb.cwd, 'a.txt'), 'one\n');
    server.script(reply().toolUse('Bash', { command: 'echo two > a.txt && echo new > b.txt' }).stop('tool_use'), reply().text('done'));
    const proc = Bun.spawn([MOAT_BIN, '--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json', '--replay-user-messages', '--permission-mode', 'acceptEdits', '--allowedTools', 'Bash'], {
      cwd: sb.cwd,
      env: { ...sb.env, CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING: 'true' },
      stdin: 'pipe',
      stdout: 'pipe',
      stderr: 'pipe',
    });
    const lines: Record<string, unknown>[] = [];
    const reading = (async () => {
      let buf = '';
      for await (const chunk of proc.stdout) {
        buf += new TextDecoder().decode(chunk);
        for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
          lines.push(JSON.parse(buf.slice(0, nl)) as Record<string, unknown>);
          buf = buf.slice(nl + 1);
        }
      }
    })();
    const send = (o: unknown) => {
      void proc.stdin.write(`${JSON.stringify(o)}\n`);
      void proc.stdin.flush();
    };
    send({ type: 'user', message: { role: 'user', content: 'change things' }, parent_tool_use_id: null, session_id: '' });
    await waitUntil(() => lines.some((l) => l.type === 'result'), 30_000, 'the result');
    const prompt = lines.find((l) => l.type === 'user' && l.checkpoint_id !== undefined);
    expect(prompt).toMatchObject({ uuid: 'turn-1', checkpoint_id: 'turn-1' });
    send({ type: 'control_request', request_id: 'r1', request: { subtype: 'rewind_files', user_message_id: 'turn-1', dry_run: true } });
    await waitUntil(() => lines.some((l) => l.type === 'control_response'), 30_000, 'the dry run');
    expect(readFileSync(join(sb.cwd, 'a.txt'), 'utf8')).toBe('two\n');
    send({ type: 'control_request', request_id: 'r2', request: { subtype: 'rewind_files', user_message_id: 'turn-1' } });
    send({ type: 'control_request', request_id: 'r3', request: { subtype: 'rewind_files', user_message_id: 'turn-9' } });
    await waitUntil(() => lines.filter((l) => l.type === 'control_response').length === 3, 30_000, 'the rewinds');
    void proc.stdin.end();
    await proc.exited;
    await reading;
    const responses = lines.filter((l) => l.type === 'control_response').map((l) => l.response);
    expect(responses).toEqual([
      { subtype: 'success', request_id: 'r1', response: { canRewind: true, filesChanged: ['a.txt', 'b.txt'], insertions: 1, deletions: 2 } },
      { subtype: 'success', request_id: 'r2', response: { canRewind: true, filesChanged: ['a.txt', 'b.txt'], insertions: 1, deletions: 2 } },
      { subtype: 'success', request_id: 'r3', response: { canRewind: false, error: `session ${String(prompt?.session_id)} has no user message turn-9` } },
    ]);
    expect(readFileSync(join(sb.cwd, 'a.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(sb.cwd, 'b.txt'))).toBe(false);
  }, 90_000);
});
