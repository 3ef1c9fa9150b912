/** Writes a checkpoint's files back all at once: staged under temporary names, then a journal, then renames, so a kill leaves the old tree or the new one. */
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { MoatError } from '../util/index.ts';
import type { ShadowGit } from './shadow-git.ts';
import { readBlobs, type TreeChange } from './tree-diff.ts';

/** The step after which the rewind is decided: each op is done again, idempotently, by `recoverRestore`. */
type JournalOp = { kind: 'rename'; from: string; to: string } | { kind: 'delete'; path: string };

function journalPath(git: ShadowGit): string {
  return join(git.gitDir, 'rewind-journal.json');
}

function stagingPath(git: ShadowGit): string {
  return join(git.gitDir, 'rewind-staging.json');
}

/** Writes a small file whole: to a temporary name, then renamed over. */
function writeWhole(path: string, text: string): void {
  const tmp = `${path}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

/**
 * The permission bits a restored file gets. Git records only whether a file
 * is executable: a file still there keeps its other bits, a re-created one
 * gets what a new file gets (0666 or 0777 less the umask), as with git checkout.
 */
function modeFor(path: string, gitMode: string): number {
  const exec = gitMode === '100755';
  const umask = process.umask();
  let current: number | undefined;
  try {
    const st = lstatSync(path);
    if (st.isFile()) current = st.mode & 0o7777;
  } catch {
    current = undefined;
  }
  if (current === undefined) return (exec ? 0o777 : 0o666) & ~umask;
  if (exec) return current | ((current & 0o444) >> 2);
  return current & ~0o111;
}

function removeEmptyParents(root: string, path: string): void {
  for (let dir = dirname(path); dir.startsWith(`${root}/`); dir = dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return;
    }
  }
}

/** The first folder on the way to `rel` that is a symbolic link, if any: a restore never writes through one. */
function linkOnTheWay(root: string, rel: string): string | undefined {
  const parts = rel.split('/').slice(0, -1);
  for (let i = 1; i <= parts.length; i++) {
    const sub = parts.slice(0, i).join('/');
    try {
      if (lstatSync(join(root, sub)).isSymbolicLink()) return sub;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function runOps(root: string, ops: readonly JournalOp[]): void {
  for (const op of ops) {
    if (op.kind === 'delete') {
      rmSync(op.path, { force: true });
      removeEmptyParents(root, op.path);
    }
  }
  for (const op of ops) {
    if (op.kind === 'rename' && existsSync(op.from)) renameSync(op.from, op.to);
  }
}

/**
 * Restores `changes` (from the tree now to the checkpoint's: `A` files are
 * written back, `D` files deleted, `M`/`T` files replaced). Every new file
 * is first written under a temporary name beside its target; only when all
 * are there is the journal written, and the renames and deletes follow it.
 * A kill before the journal leaves the old tree (the staged files are
 * removed by `recoverRestore`), a kill after it is finished by
 * `recoverRestore`: never a mix.
 */
export async function applyRestore(git: ShadowGit, changes: readonly TreeChange[]): Promise<void> {
  const root = git.workTree;
  const linked = changes.map((c) => linkOnTheWay(root, c.path)).find((l) => l !== undefined);
  if (linked !== undefined) {
    throw new MoatError('usage', `${linked} is a symbolic link now, and the rewind would write through it: remove it and rewind again`);
  }
  const writes = changes.filter((c) => c.toBlob !== '');
  const deletes = changes.filter((c) => c.toBlob === '');
  const tag = `.moat-rewind-${process.pid}-${Date.now().toString(36)}`;
  const staged = writes.map((c) => ({ change: c, to: join(root, c.path), tmp: join(root, dirname(c.path), `.${basename(c.path)}${tag}`) }));
  writeWhole(stagingPath(git), JSON.stringify(staged.map((s) => s.tmp)));
  const blobs = await readBlobs(git, writes.map((c) => c.toBlob));
  for (const s of staged) {
    const data = blobs.get(s.change.toBlob);
    if (data === undefined) throw new Error(`the checkpoint has no content for ${s.change.path}`);
    // A folder in the way of a file (or a file in the way of a folder) goes with the deletes.
    mkdirSync(dirname(s.tmp), { recursive: true });
    if (s.change.toMode === '120000') {
      symlinkSync(data.toString('utf8'), s.tmp);
    } else {
      writeFileSync(s.tmp, data, { mode: 0o600 });
      chmodSync(s.tmp, modeFor(s.to, s.change.toMode));
    }
  }
  const ops: JournalOp[] = [...deletes.map((c): JournalOp => ({ kind: 'delete', path: join(root, c.path) })), ...staged.map((s): JournalOp => ({ kind: 'rename', from: s.tmp, to: s.to }))];
  writeWhole(journalPath(git), JSON.stringify({ root, ops }));
  runOps(root, ops);
  rmSync(journalPath(git), { force: true });
  rmSync(stagingPath(git), { force: true });
}

/** Whether a restore's journal or staged files are there: a kill cut it short. */
export function restoreInterrupted(git: ShadowGit): boolean {
  return existsSync(journalPath(git)) || existsSync(stagingPath(git));
}

/**
 * Finishes or undoes a restore a kill interrupted: with a journal its
 * operations are done again (each is idempotent); without one, the files
 * staged for it are removed. True when there was something to do.
 */
export function recoverRestore(git: ShadowGit): boolean {
  const journal = journalPath(git);
  const staging = stagingPath(git);
  let did = false;
  if (existsSync(journal)) {
    const j = JSON.parse(readFileSync(journal, 'utf8')) as { root: string; ops: JournalOp[] };
    runOps(j.root, j.ops);
    did = true;
  } else if (existsSync(staging)) {
    for (const tmp of JSON.parse(readFileSync(staging, 'utf8')) as string[]) {
      try {
        if (lstatSync(tmp)) rmSync(tmp, { force: true });
      } catch {
        // never written
      }
    }
    did = true;
  }
  rmSync(journal, { force: true });
  rmSync(staging, { force: true });
  return did;
}
