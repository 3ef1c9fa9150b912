/** Records the project's working tree as a commit in the shadow repository: only what changed since the last one is read. */
import { closeSync, fstatSync, lstatSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ShadowGit } from './shadow-git.ts';

/** A file left out of a checkpoint, and why. */
export interface LeftOut {
  path: string;
  reason: 'too_large' | 'nested_repository';
  /** Bytes, for a file over the size limit. */
  size?: number;
}

export interface Snapshot {
  commit: string;
  tree: string;
  /** Files that are in the working tree but not in the checkpoint. */
  leftOut: LeftOut[];
  /** False when the tree was the same as `parent`'s and no commit was written. */
  wrote: boolean;
}

/** From this many files to stage, git writes them straight into a pack (its bulk check-in) rather than as loose objects. */
const PACK_FROM = 200;

/** The index file's own checksum (its last 20 bytes): the same checksum, the same entries, the same tree. */
function indexChecksum(git: ShadowGit): string | undefined {
  try {
    const fd = openSync(git.indexFile, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size < 20) return undefined;
      const buf = Buffer.alloc(20);
      readSync(fd, buf, 0, 20, size - 20);
      return buf.toString('hex');
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** Where the tree of the index as last written is kept, with the index's checksum then. */
const treeNote = (git: ShadowGit) => `${git.indexFile}-tree`;

/**
 * The tree of an index nothing was staged in since it was last written,
 * when the index's checksum is the one noted with it: an unchanged
 * checkpoint in a fresh process skips `write-tree` (25-30 ms of its ~140 on
 * 10,000 files).
 */
function knownTree(git: ShadowGit): string | undefined {
  try {
    const [sum, tree] = readFileSync(treeNote(git), 'utf8').split(' ');
    return sum !== undefined && sum === indexChecksum(git) && tree !== undefined && /^[0-9a-f]{40,64}$/.test(tree) ? tree : undefined;
  } catch {
    return undefined;
  }
}

async function writeTree(git: ShadowGit): Promise<string> {
  const tree = (await git.run(['write-tree'])).trim();
  const sum = indexChecksum(git);
  if (sum !== undefined) writeFileSync(treeNote(git), `${sum} ${tree}`);
  return tree;
}

function nulList(text: string): string[] {
  return text.split('\0').filter((p) => p !== '');
}

/** The working tree as a tree in the shadow repository, not yet a commit. */
export interface StagedTree {
  tree: string;
  leftOut: LeftOut[];
}

/**
 * Stages what differs between the shadow index and the working tree —
 * modified, deleted and untracked files `.gitignore` does not exclude — and
 * writes the tree. On an unchanged project this is one `ls-files` (a stat
 * per tracked file and a walk that skips ignored folders) and one
 * `write-tree` answered from the index's cached tree. A file over
 * `maxFileBytes` is left out (dropped from the index when it was in it).
 * `knownAs`: a tree the caller already holds; an index unchanged since it
 * was written as that tree is not written again.
 */
async function stageTree(git: ShadowGit, o: { maxFileBytes: number; knownAs?: string | undefined }): Promise<StagedTree> {
  const changed = [...new Set(nulList(await git.run(['ls-files', '-z', '--modified', '--deleted', '--others', '--exclude-standard'])))];
  const leftOut: LeftOut[] = [];
  const update: string[] = [];
  for (const path of changed) {
    let st;
    try {
      st = lstatSync(join(git.workTree, path));
    } catch {
      update.push(path); // gone: --remove drops it from the index
      continue;
    }
    if (st.isDirectory()) {
      // ls-files names a folder only when it holds a repository of its own.
      leftOut.push({ path, reason: 'nested_repository' });
      continue;
    }
    if (st.isFile() && st.size > o.maxFileBytes) {
      leftOut.push({ path, reason: 'too_large', size: st.size });
      continue;
    }
    update.push(path);
  }
  // A file over the limit that was staged before leaves the index: a checkpoint holds none.
  const tooLarge = leftOut.filter((l) => l.reason === 'too_large').map((l) => l.path);
  if (tooLarge.length > 0) await git.exec(['update-index', '--force-remove', '-z', '--stdin'], `${tooLarge.join('\0')}\0`);
  if (update.length > 0) {
    // Many files at once (a first checkpoint) go into one pack instead of one loose object each: 10,000 loose objects took 10-14 s here, a pack 0.7 s.
    const toPack = update.length >= PACK_FROM ? ['-c', 'core.bigFileThreshold=1'] : [];
    await git.run([...toPack, 'update-index', '--add', '--remove', '-z', '--stdin'], `${update.join('\0')}\0`);
  }
  // Nothing staged and the index is the one whose tree is the known one: that is the answer (a tree noted but not
  // known to the caller may have been pruned since, so it is written again).
  const noted = update.length === 0 && tooLarge.length === 0 ? knownTree(git) : undefined;
  const tree = noted !== undefined && noted === o.knownAs ? noted : await writeTree(git);
  return { tree, leftOut };
}

/** The staged tree as a commit on `parent`; none is written when the tree is the parent's. */
export async function commitTree(git: ShadowGit, staged: StagedTree, o: { parent: { commit: string; tree: string } | undefined; message: string }): Promise<Snapshot> {
  const { tree, leftOut } = staged;
  if (o.parent?.tree === tree) return { commit: o.parent.commit, tree, leftOut, wrote: false };
  const commit = (await git.run(['commit-tree', tree, ...(o.parent === undefined ? [] : ['-p', o.parent.commit]), '-m', o.message])).trim();
  return { commit, tree, leftOut, wrote: true };
}

/** Records the working tree now as a commit on `parent` (stageTree, then commitTree). */
export async function snapshot(git: ShadowGit, o: { parent: { commit: string; tree: string } | undefined; maxFileBytes: number; message: string }): Promise<Snapshot> {
  return commitTree(git, await stageTree(git, { maxFileBytes: o.maxFileBytes, knownAs: o.parent?.tree }), o);
}
