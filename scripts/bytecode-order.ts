/**
 * The release build's bytecode layout (`bun run build --bytecode-order`):
 * records the profiles scripts/build.ts then lays dist/moat's bytecode out by
 * (Bun's `--bytecode-order`). Each way of starting moat runs
 * once, the way a user would, with BUN_BYTECODE_ORDER_OUT set, and the
 * functions it loaded are written to one file per way:
 *  - tui.order: the interactive UI to its first frame, one prompt answered, /exit;
 *  - print.order: `moat -p` reading a file and answering;
 *  - stream-json.order: one user message in stream-json mode, as the Agent SDK sends it.
 * The binary then keeps what those runs load together at the front of its
 * bytecode, so start-up reads and decodes less of the executable (measured in
 * scripts/bench/startup.ts and tui-startup.ts). A profile names functions by a
 * hash of their syntax: it still applies after code changes, only changed
 * functions fall back to the cold part. The profiles are recorded by every
 * such build from the binary it has just built, into a temporary folder, so
 * none is committed and none goes stale. Measured on `-p` read-then-answer
 * (12 interleaved runs): peak RSS 54.6 -> 51.9 MB and ~4.5 ms less of the
 * main thread's CPU before the first request (103.5 -> 99.0 ms on a loaded
 * machine), which keeps the 55 MB budget with room.
 *
 * Run: bun run scripts/bytecode-order.ts <binary> <out folder>   (scripts/build.ts does)
 */
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { reply, startFakeAnthropic } from '../test/support/fake-anthropic.ts';
import { makeSandbox, runMoat, waitUntil } from '../test/support/run-moat.ts';
import { tempState } from '../test/support/temp.ts';
import { TmuxSession } from '../test/support/tmux.ts';

const [binArg, outArg] = process.argv.slice(2);
if (binArg === undefined || outArg === undefined || !existsSync(binArg)) {
  console.error('usage: bun run scripts/bytecode-order.ts <built moat> <out folder>');
  process.exit(1);
}
const BIN = resolve(binArg);
const OUT = resolve(outArg);
mkdirSync(OUT, { recursive: true });

const server = await startFakeAnthropic();
const sb = makeSandbox(server.url);
writeFileSync(join(sb.cwd, 'notes.txt'), 'alpha\nbeta\ngamma\n');
// A git repository, as most working folders are (git facts go into the system prompt).
for (const args of [['init', '-q', '-b', 'main'], ['add', 'notes.txt'], ['-c', 'user.name=r', '-c', 'user.email=r@example.com', 'commit', '-q', '-m', 'notes']]) {
  Bun.spawnSync(['git', ...args], { cwd: sb.cwd, stdout: 'ignore', stderr: 'ignore' });
}
// The folder is trusted, as a user's own project is: the first frame is the prompt, not the trust question.
mkdirSync(join(sb.env.XDG_CONFIG_HOME ?? '', 'moat'), { recursive: true });

/** The profile of one run goes to a temporary name first: a run that fails leaves the old profile in place. */
const recording = (name: string) => join(OUT, `${name}.order.part`);
function keep(name: string): void {
  const part = recording(name);
  if (!existsSync(part)) throw new Error(`${name}: the run wrote no profile`);
  renameSync(part, join(OUT, `${name}.order`));
  console.log(`recorded ${name}.order`);
}

try {
  if ((await runMoat(['trust'], { cwd: sb.cwd, env: sb.env, bin: BIN })).code !== 0) throw new Error('moat trust failed');

  // -p: a tool turn, then the answer.
  server.script(reply().toolUse('Read', { file_path: 'notes.txt' }).stop('tool_use'), reply().text('Three lines.'));
  const print = await runMoat(['-p', 'how many lines in notes.txt?'], { cwd: sb.cwd, env: { ...sb.env, BUN_BYTECODE_ORDER_OUT: recording('print') }, bin: BIN });
  if (print.code !== 0 || !print.stdout.includes('Three lines.')) throw new Error(`moat -p failed: ${print.stderr}`);
  keep('print');

  // stream-json: one user message on stdin, as the Agent SDK writes it.
  server.script(reply().text('Hello from stream-json.'));
  const message = JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' }, parent_tool_use_id: null, session_id: '' });
  const stream = await runMoat(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'], {
    cwd: sb.cwd,
    env: { ...sb.env, BUN_BYTECODE_ORDER_OUT: recording('stream-json') },
    bin: BIN,
    stdin: `${message}\n`,
  });
  if (stream.code !== 0 || !stream.stdout.includes('"type":"result"')) throw new Error(`stream-json failed: ${stream.stderr}`);
  keep('stream-json');

  // The TUI: first frame, one prompt answered, /exit (the profile is written when the process exits).
  server.script(reply().text('Hello from the TUI.'));
  const tui = new TmuxSession(`${BIN}`, { cwd: sb.cwd, env: { ...sb.env, BUN_BYTECODE_ORDER_OUT: recording('tui') } });
  try {
    await tui.waitFor('Ask moat', { timeoutMs: 10_000 });
    await tui.submit('hi', 'Hello from the TUI.');
    await tui.typeAndWait('/exit');
    tui.keys('Enter');
    await waitUntil(() => tui.info('#{pane_dead}') === '1', 10_000, 'the TUI to exit');
  } finally {
    await tui.kill();
  }
  keep('tui');
} finally {
  for (const name of ['print', 'stream-json', 'tui']) rmSync(recording(name), { force: true });
  await server.close();
  // The sandbox's folders (made outside a test run, so no preload removes them).
  tempState.runEnded();
}
