/** What `moat worktrees list|diff|merge|rm` do to the worktrees moat made. */
import { existsSync } from 'node:fs';
import { MoatError } from '../../util/index.ts';
import { git, gitOk, identityArgs } from './git.ts';
import { removeWorktree, requireRepo, worktreeChanges, type WorktreeChanges } from './worktree.ts';
import { listRecords, processAlive, writeRecord, type WorktreeRecord } from './worktree-records.ts';

/**
 * What `moat worktrees list|diff|merge|rm` do, on the records and branches
 * moat made. The current repository is the one holding cwd; the worktrees are
 * those of its main working tree.
 */

export type WorktreeState =
  /** An agent works in it now. */
  | 'running'
  /** Its agent's process ended without finishing (crash, kill -9); its files may be uncommitted. */
  | 'interrupted'
  /** Finished, with changes not yet in the current branch. */
  | 'ready'
  /** Its branch is already part of the current branch. */
  | 'merged'
  /** The folder is gone (deleted by hand); `rm` cleans up the rest. */
  | 'missing';

export interface WorktreeItem {
  record: WorktreeRecord;
  state: WorktreeState;
  /** Committed changes on its branch (undefined when the branch is gone). */
  changes?: WorktreeChanges;
}

async function branchTip(repoRoot: string, branch: string): Promise<string | undefined> {
  const r = await git(repoRoot, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]);
  return r.code === 0 ? r.stdout.trim() : undefined;
}

async function stateOf(cwd: string, r: WorktreeRecord, tip: string | undefined): Promise<WorktreeState> {
  if (r.state === 'running' && processAlive(r.pid)) return 'running';
  if (!existsSync(r.path)) return 'missing';
  if (r.state === 'running') return 'interrupted';
  if (tip !== undefined && (await git(cwd, ['merge-base', '--is-ancestor', tip, 'HEAD'])).code === 0) return 'merged';
  return 'ready';
}

export async function listWorktrees(cwd: string): Promise<WorktreeItem[]> {
  const repo = await requireRepo(cwd, 'moat worktrees');
  const items: WorktreeItem[] = [];
  for (const record of listRecords(repo.mainRoot)) {
    const tip = await branchTip(repo.mainRoot, record.branch);
    const state = await stateOf(cwd, record, tip);
    const changes = tip !== undefined && existsSync(record.path) ? await worktreeChanges(record, tip) : undefined;
    items.push({ record, state, ...(changes ? { changes } : {}) });
  }
  return items;
}

/** The worktree with this id or unique id prefix. */
export async function findWorktree(cwd: string, id: string): Promise<WorktreeItem> {
  const items = await listWorktrees(cwd);
  const exact = items.find((i) => i.record.id === id);
  if (exact) return exact;
  const found = items.filter((i) => i.record.id.startsWith(id) || i.record.branch === id);
  if (found.length === 1) return found[0]!;
  if (found.length > 1) throw new MoatError('usage', `worktree id '${id}' is ambiguous: ${found.map((i) => i.record.id).join(', ')}`);
  const known = items.map((i) => i.record.id);
  throw new MoatError('not_found', `no moat worktree '${id}' in this repository${known.length > 0 ? ` (there are: ${known.join(', ')})` : ''}`);
}

/** The agent's work as a patch (or `--stat`): committed, plus anything still uncommitted in its folder. */
export async function diffWorktree(item: WorktreeItem, stat: boolean): Promise<string> {
  const r = item.record;
  const mode = stat ? ['--stat=100'] : ['--binary'];
  if (existsSync(r.path)) return gitOk(r.path, ['diff', '--no-color', '--no-ext-diff', ...mode, r.startCommit]);
  return gitOk(r.repoRoot, ['diff', '--no-color', '--no-ext-diff', ...mode, r.startCommit, r.branch]);
}

/** Commits what an interrupted agent left uncommitted, so a merge does not silently leave it behind. */
async function commitLeftovers(r: WorktreeRecord): Promise<void> {
  await gitOk(r.path, ['add', '-A']);
  if ((await git(r.path, ['diff', '--cached', '--quiet'])).code === 1) {
    const message = `${r.description}\n\nWork left uncommitted by moat sub-agent ${r.id}, which was interrupted.`;
    await gitOk(r.path, [...(await identityArgs(r.path)), 'commit', '--quiet', '--no-verify', '-m', message]);
  }
  writeRecord({ ...r, state: 'ready' });
}

export type MergeOutcome =
  | { kind: 'merged'; summary: string }
  | { kind: 'up_to_date' }
  /** Stopped mid-merge: the repository is in git's merging state. */
  | { kind: 'conflict'; files: string[] }
  /** git refused before changing anything (e.g. local changes in the way). */
  | { kind: 'refused'; reason: string };

/** Merges the worktree's branch into the branch checked out in cwd. */
export async function mergeWorktree(cwd: string, item: WorktreeItem): Promise<MergeOutcome> {
  const r = item.record;
  if (item.state === 'running') {
    throw new MoatError('usage', `agent ${r.id} is still working in this worktree: wait for it, or stop it with moat agents stop ${r.id}`);
  }
  const repo = await requireRepo(cwd, 'moat worktrees merge');
  if (repo.top === r.path) throw new MoatError('usage', `you are inside worktree ${r.id}: run the merge from the branch you want to merge into`);
  if (item.state === 'interrupted') await commitLeftovers(r);
  if ((await branchTip(r.repoRoot, r.branch)) === undefined) throw new MoatError('not_found', `branch ${r.branch} no longer exists`);
  if (item.state === 'merged') return { kind: 'up_to_date' };

  const before = (await gitOk(cwd, ['rev-parse', 'HEAD'])).trim();
  const message = `Merge ${r.branch}: ${r.description}`;
  const m = await git(cwd, [...(await identityArgs(cwd)), 'merge', '--no-edit', '-m', message, r.branch]);
  if (m.code === 0) {
    const summary = (await gitOk(cwd, ['diff', '--stat=100', '--no-color', before, 'HEAD'])).trimEnd();
    return { kind: 'merged', summary };
  }
  const conflicted = (await gitOk(cwd, ['diff', '--name-only', '--diff-filter=U'])).split('\n').filter((l) => l !== '');
  if (conflicted.length > 0) return { kind: 'conflict', files: conflicted };
  return { kind: 'refused', reason: (m.stderr.trim() || m.stdout.trim()).replace(/\n+/g, ' ') };
}

/** Removes the worktree, its branch and its record. Unmerged work needs `force`. */
export async function deleteWorktree(item: WorktreeItem, force: boolean): Promise<void> {
  const r = item.record;
  if (item.state === 'running') {
    throw new MoatError('usage', `agent ${r.id} is still working in this worktree: stop it first with moat agents stop ${r.id}`);
  }
  if (!force && (item.state === 'ready' || item.state === 'interrupted')) {
    throw new MoatError('usage', `worktree ${r.id} has work not merged into the current branch (${r.branch}): merge it with moat worktrees merge ${r.id}, or remove it anyway with --force`);
  }
  await removeWorktree(r);
}
