/**
 * Temporary folders for tests. Each is removed after the test that made it
 * (or, when made outside a test — a beforeAll, a describe body — after the
 * whole run), also when the test fails; the preload (cleanup-preload.ts)
 * runs the removal and fails the run on folders nobody removed.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const state = { inTest: false, perTest: [] as string[], perRun: [] as string[] };

/** A fresh folder under the system temp folder, by its real path (`/tmp` may be a symlink). */
export function tempDir(prefix = 'moat-'): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix.startsWith('moat-') ? prefix : `moat-${prefix}`)));
  (state.inTest ? state.perTest : state.perRun).push(dir);
  return dir;
}

/** Also removes a folder made elsewhere (under /var/tmp, in the repository) with the test that made it. */
export function removeLater(dir: string): string {
  (state.inTest ? state.perTest : state.perRun).push(dir);
  return dir;
}

function removeAll(dirs: string[]): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export const tempState = {
  testStarted(): void {
    state.inTest = true;
  },
  testEnded(): void {
    state.inTest = false;
    removeAll(state.perTest);
  },
  runEnded(): void {
    removeAll(state.perTest);
    removeAll(state.perRun);
  },
};
