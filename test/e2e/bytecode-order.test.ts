/**
 * The recorded bytecode-order profiles (scripts/bytecode-order/) still cover
 * what start-up loads: the build lays out the bytecode by them, and a function
 * changed since the recording is placed in the unknown part, away from the
 * rest. When too much of a run falls outside the profiles they are stale:
 * record them again (scripts/bytecode-order/record.ts). Runs dist/moat-test,
 * built with the same profiles as dist/moat.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BytecodeOrderStats } from 'bun:jsc';
import { reply, startFakeAnthropic, type FakeAnthropic } from '../support/fake-anthropic.ts';
import { MOAT_TEST_BIN, makeSandbox, runMoat } from '../support/run-moat.ts';

/** At most this share of the functions a run loads may come from outside the profiles. */
const MAX_OUTSIDE = 0.15;

let server: FakeAnthropic;
beforeAll(async () => {
  if (!existsSync(MOAT_TEST_BIN)) throw new Error('dist/moat-test is missing: run `bun run build` first');
  server = await startFakeAnthropic();
});
afterAll(async () => {
  await server.close();
});

async function statsOf(args: string[], stdin?: string): Promise<BytecodeOrderStats> {
  const sb = makeSandbox(server.url);
  writeFileSync(join(sb.cwd, 'notes.txt'), 'alpha\nbeta\n');
  const out = join(sb.home, 'stats.json');
  const r = await runMoat(args, { cwd: sb.cwd, env: { ...sb.env, MOAT_TEST_BYTECODE_ORDER_STATS: out }, bin: MOAT_TEST_BIN, ...(stdin === undefined ? {} : { stdin }) });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  const stats = JSON.parse(readFileSync(out, 'utf8')) as BytecodeOrderStats | null;
  if (stats === null) throw new Error('dist/moat-test was built without a bytecode order');
  return stats;
}

function expectCovered(stats: BytecodeOrderStats): void {
  const loaded = stats.hot + stats.unknown + stats.cold;
  // A run of moat loads well over a thousand functions; far fewer means the stats are not about this run.
  expect(loaded).toBeGreaterThan(1000);
  const outside = (stats.unknown + stats.cold) / loaded;
  if (outside > MAX_OUTSIDE) {
    throw new Error(
      `${(outside * 100).toFixed(1)} % of the functions this run loaded are outside the bytecode-order profiles (at most ${MAX_OUTSIDE * 100} %): record them again with \`bun run build && bun run scripts/bytecode-order/record.ts && bun run build\``,
    );
  }
}

test('-p reading a file and answering loads what the profiles recorded', async () => {
  server.script(reply().toolUse('Read', { file_path: 'notes.txt' }).stop('tool_use'), reply().text('Two lines.'));
  expectCovered(await statsOf(['-p', 'how many lines in notes.txt?']));
});

test('stream-json mode answering one message loads what the profiles recorded', async () => {
  server.script(reply().text('Hello.'));
  const message = JSON.stringify({ type: 'user', message: { role: 'user', content: 'hi' }, parent_tool_use_id: null, session_id: '' });
  expectCovered(await statsOf(['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose'], `${message}\n`));
});
