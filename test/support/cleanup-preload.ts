/**
 * Preloaded for every test run (bunfig.toml): sets the tests' timeout,
 * removes the temp folders tests made with tempDir(), then checks that the
 * run left nothing behind in the system temp folder — a leftover `moat-*`
 * folder fails the run, naming it.
 */
import { afterAll, afterEach, beforeEach, setDefaultTimeout } from 'bun:test';
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { otherLiveRuns, RUN_FOLDER_PREFIX, tempState } from './temp.ts';

// The OS sandbox's private temp folder of this very process (moat-session-<pid>-…) is removed by its own exit hook, after this check.
const ours = (name: string) => name.startsWith('moat-') && !name.startsWith(RUN_FOLDER_PREFIX) && !name.startsWith(`moat-session-${process.pid}-`);

/** Up to eight paths inside a folder, for the report. */
function contents(dir: string): string[] {
  try {
    return (readdirSync(dir, { recursive: true }) as string[]).slice(0, 8);
  } catch {
    return [];
  }
}
// Tests spawn servers and the compiled binary; 5 s (Bun's default) is too tight on a 2-core machine. Bun 1.4.5 reads
// no timeout from bunfig.toml, and this call reaches only the first test file of a run (three 5.5 s tests in three
// files: the second and third timed out at 5 s), so scripts/test.sh also passes --timeout 30000, which reaches all.
setDefaultTimeout(30_000);

tempState.runStarted();
const before = new Set(readdirSync(tmpdir()).filter(ours));
const othersAtStart = otherLiveRuns();

beforeEach(() => tempState.testStarted());
afterEach(() => tempState.testEnded());
afterAll(() => {
  tempState.runEnded();
  const left = readdirSync(tmpdir()).filter((n) => ours(n) && !before.has(n));
  if (left.length === 0) return;
  // A folder moat makes (an MCP server's temp folder, a test's own mkdtemp) does not say which run made it: while
  // another run is going, it may be that run's, still in use. Removing it broke the other run; so only say so.
  const others = [...new Set([...othersAtStart, ...otherLiveRuns()])];
  if (others.length > 0) {
    process.stderr.write(`note: ${left.length} new moat-* entries in ${tmpdir()} not checked: other test runs (pid ${others.join(', ')}) were going at the same time\n`);
    return;
  }
  // What is inside says who made it; then removed so the next run starts clean, and reported so the leak gets fixed.
  const sample = left.slice(0, 3).map((n) => `${n} [${contents(join(tmpdir(), n)).join(' ')}]`);
  for (const n of left) rmSync(join(tmpdir(), n), { recursive: true, force: true });
  throw new Error(`the tests left ${left.length} folders in ${tmpdir()}: ${sample.join(', ')}${left.length > 3 ? ', …' : ''}`);
});
