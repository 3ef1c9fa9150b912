/**
 * Temporary folders for tests. Each is removed after the test that made it
 * (or, when made outside a test — a beforeAll, a describe body — after the
 * whole run), also when the test fails; the preload (cleanup-preload.ts)
 * runs the removal and fails the run on folders nobody removed.
 */
import { mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const state = { inTest: false, perTest: [] as string[], perRun: [] as string[] };

/**
 * Every folder of a run lives in one folder of its own, named with the run's
 * process id. Runs on one machine share the temp folder (a CI clone beside a
 * working tree, two people's `bun test`): a run that took another's folders
 * for its own leftovers removed them while that run's moat was working in
 * them (its cwd gone, `moat mcp list` failed with ENOENT).
 */
export const RUN_FOLDER_PREFIX = 'moat-run-';
let runFolder: string | undefined;

function ownRunFolder(): string {
  runFolder ??= realpathSync(mkdtempSync(join(tmpdir(), `${RUN_FOLDER_PREFIX}${process.pid}-`)));
  return runFolder;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, owned by someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The other runs' folders in the temp folder, with the process id each is named by. */
function otherRunFolders(): { name: string; pid: number }[] {
  return readdirSync(tmpdir())
    .filter((n) => n.startsWith(RUN_FOLDER_PREFIX))
    .map((name) => ({ name, pid: Number(name.slice(RUN_FOLDER_PREFIX.length).split('-')[0]) }))
    .filter((r) => Number.isInteger(r.pid) && r.pid !== process.pid);
}

/** Process ids of the other test runs whose folders are in the temp folder now and that are still running. */
export function otherLiveRuns(): number[] {
  return [...new Set(otherRunFolders().map((r) => r.pid))].filter(alive);
}

/** A fresh folder in this run's folder under the system temp folder, by its real path (`/tmp` may be a symlink). */
export function tempDir(prefix = 'moat-'): string {
  const dir = realpathSync(mkdtempSync(join(ownRunFolder(), prefix.startsWith('moat-') ? prefix : `moat-${prefix}`)));
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
  /** Made at once (not at the first tempDir()): other runs see this one is going from its start. A killed run's folder goes. */
  runStarted(): void {
    for (const r of otherRunFolders()) if (!alive(r.pid)) rmSync(join(tmpdir(), r.name), { recursive: true, force: true });
    ownRunFolder();
  },
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
    if (runFolder !== undefined) rmSync(runFolder, { recursive: true, force: true });
    runFolder = undefined;
  },
};
