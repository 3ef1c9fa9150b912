/**
 * The release build (`bun run release`: every target's executable, the
 * archives, the npm packages), made at most once per test run and shared by
 * the tests in test/release/: it is reused while it is newer than dist/moat,
 * which scripts/test.sh builds first in every run. And the check every
 * installed or emulated executable passes: a `-p` read-then-answer against
 * the scripted model server.
 */
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { reply, type FakeAnthropic } from './fake-anthropic.ts';
import { makeSandbox, runMoat, type MoatResult } from './run-moat.ts';

const ROOT = resolve(import.meta.dir, '../..');
export const RELEASE_DIR = join(ROOT, 'dist', 'release');
export const NPM_DIR = join(ROOT, 'dist', 'npm');
export const RELEASE_BUILD_DIR = join(ROOT, 'dist', 'release-build');
const SUMS = join(RELEASE_DIR, 'SHA256SUMS');

let built: Promise<void> | undefined;

function fresh(): boolean {
  const moat = join(ROOT, 'dist', 'moat');
  return existsSync(SUMS) && existsSync(NPM_DIR) && (!existsSync(moat) || statSync(SUMS).mtimeMs >= statSync(moat).mtimeMs);
}

/** Builds the release unless this run already has one; prints how long the build took. */
export function releaseBuild(): Promise<void> {
  built ??= (async () => {
    if (fresh()) return;
    const started = performance.now();
    const r = Bun.spawn(['bun', 'run', 'scripts/release.ts'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' });
    const [out, err, code] = await Promise.all([new Response(r.stdout).text(), new Response(r.stderr).text(), r.exited]);
    if (code !== 0) throw new Error(`bun run release failed (exit ${code}):\n${out}\n${err}`);
    console.log(`release build for the tests: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  })();
  return built;
}

/** Runs `argv` (an installed or emulated moat) on a task that reads a file, and returns what it printed. */
export async function readThenAnswer(server: FakeAnthropic, argv: string[], extraEnv: Record<string, string> = {}): Promise<MoatResult> {
  const sb = makeSandbox(server.url);
  writeFileSync(join(sb.cwd, 'notes.txt'), 'alpha\nbeta\n');
  server.script(reply().text('Reading.').toolUse('Read', { file_path: 'notes.txt' }).stop('tool_use'), reply().text('It has two lines.'));
  const [bin = '', ...args] = argv;
  return runMoat([...args, '-p', 'how many lines in notes.txt?'], { cwd: sb.cwd, env: { ...sb.env, ...extraEnv }, bin });
}

/** The text of the tool result in the last message of request `i`. */
export function lastToolResult(server: FakeAnthropic, i: number): string {
  const body = server.requests[i]?.body as { messages: { content: { type: string; content?: unknown }[] }[] } | undefined;
  const result = body?.messages.at(-1)?.content.find((c) => c.type === 'tool_result');
  return typeof result?.content === 'string' ? result.content : JSON.stringify(result?.content);
}
