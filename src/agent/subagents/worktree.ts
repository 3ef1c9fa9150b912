/** Git worktrees for isolated sub-agents and `moat -p --worktree`: create, commit, list changes. */
import { copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { MoatError } from '../../util/index.ts';
import { git, gitOk, identityArgs } from './git.ts';
import { deleteRecord, worktreesDir, writeRecord, type WorktreeRecord } from './worktree-records.ts';

/**
 * Git worktrees for sub-agents (and `moat -p --worktree`): each isolated agent
 * works on its own branch in its own folder, so parallel agents never see
 * each other's half-done edits and the user's working tree stays untouched
 * until they merge.
 */

export interface RepoInfo {
  /** Top of the working tree that holds cwd (a linked worktree's own top inside one). */
  top: string;
  /** The main working tree, where `.moat/worktrees` lives for every worktree of the repository. */
  mainRoot: string;
  commonDir: string;
  /** Undefined in a repository without commits. */
  head: string | undefined;
}

export interface FileChange {
  path: string;
  /** A added, M modified, D deleted (renames show as D + A). */
  status: string;
  /** Null for binary files. */
  added: number | null;
  removed: number | null;
}

export interface WorktreeChanges {
  id: string;
  branch: string;
  path: string;
  /** The commit moat made of the agent's work (or the agent's own last commit). */
  commit: string;
  files: FileChange[];
  /** `git diff --stat`, as git prints it. */
  diffStat: string;
}

const EXCLUDE_LINE = '/.moat/worktrees/';

export async function repoInfo(cwd: string): Promise<RepoInfo | undefined> {
  const r = await git(cwd, ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-common-dir']);
  if (r.code !== 0) return undefined;
  const [top, commonDir] = r.stdout.trim().split('\n');
  if (!top || !commonDir) return undefined;
  // A bare repository's worktrees have no main working tree: keep them beside the current one.
  const mainRoot = basename(commonDir) === '.git' ? dirname(commonDir) : top;
  const head = await git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
  return { top, mainRoot, commonDir, head: head.code === 0 ? head.stdout.trim() : undefined };
}

/** Like repoInfo, but outside a repository (or before the first commit) says so to the user. */
export async function requireRepo(cwd: string, what: string): Promise<RepoInfo & { head: string }> {
  const info = await repoInfo(cwd);
  if (!info) throw new MoatError('usage', `${what} needs a git repository, and ${cwd} is not inside one`);
  if (!info.head) throw new MoatError('usage', `${what} needs a commit to start from: this repository has none yet`);
  return { ...info, head: info.head };
}

/** `Fix the login bug!` → `fix-the-login-bug`: readable in `git branch`, safe in a ref name. */
export function slugify(text: string): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '');
  return slug || 'task';
}

/** Keeps `.moat/worktrees` out of `git status` without touching the user's .gitignore. */
function ensureExcluded(commonDir: string): void {
  const file = join(commonDir, 'info', 'exclude');
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    mkdirSync(dirname(file), { recursive: true });
  }
  if (text.split('\n').some((l) => l.trim() === EXCLUDE_LINE)) return;
  const sep = text === '' || text.endsWith('\n') ? '' : '\n';
  writeFileSync(file, `${text}${sep}# moat sub-agent worktrees\n${EXCLUDE_LINE}\n`);
}

/** Copies untracked, not-ignored files of `from` into `to`; symlinks stay symlinks. */
async function copyUntracked(from: string, to: string): Promise<number> {
  const list = (await gitOk(from, ['ls-files', '--others', '--exclude-standard', '-z'])).split('\0').filter((p) => p !== '');
  for (const rel of list) {
    const src = join(from, rel);
    const dst = join(to, rel);
    mkdirSync(dirname(dst), { recursive: true });
    const st = lstatSync(src);
    if (st.isSymbolicLink()) symlinkSync(readlinkSync(src), dst);
    else if (st.isFile()) copyFileSync(src, dst);
  }
  return list.length;
}

/** Applies the tracked changes (staged and not) of `from` relative to HEAD to `to`; true if there were any. */
async function applyTrackedChanges(from: string, to: string): Promise<boolean> {
  const patch = await gitOk(from, ['diff', 'HEAD', '--binary', '--no-color', '--no-ext-diff']);
  if (patch.trim() === '') return false;
  await gitOk(to, ['apply', '--binary', '--whitespace=nowarn'], { stdin: patch });
  return true;
}

export interface CreateWorktreeOptions {
  id: string;
  description: string;
  base: 'head' | 'working-tree';
  agentId?: string;
  sessionId?: string;
  /** Named in the error outside a repository. */
  purpose?: string;
}

/**
 * A new worktree on branch `moat/<id>-<slug>` from cwd's HEAD, under
 * `<main root>/.moat/worktrees/<id>`. With base `working-tree` the uncommitted
 * changes of cwd's working tree (tracked and untracked, .gitignore respected)
 * are carried over and committed first, so the agent's own work is exactly
 * what comes after `startCommit`. Returns the record, the folder inside the
 * worktree that corresponds to cwd, and the top of cwd's own working tree.
 */
export async function createWorktree(
  cwd: string,
  opts: CreateWorktreeOptions,
): Promise<{ record: WorktreeRecord; cwd: string; sourceTop: string }> {
  const info = await requireRepo(cwd, opts.purpose ?? 'isolation "worktree"');
  ensureExcluded(info.commonDir);
  const path = join(worktreesDir(info.mainRoot), opts.id);
  if (existsSync(path)) throw new MoatError('internal', `worktree folder ${path} already exists`);
  const branch = `moat/${opts.id}-${slugify(opts.description)}`;
  await gitOk(info.top, ['worktree', 'add', '--quiet', '-b', branch, path, info.head]);

  let startCommit = info.head;
  try {
    if (opts.base === 'working-tree') {
      const tracked = await applyTrackedChanges(info.top, path);
      const untracked = await copyUntracked(info.top, path);
      if (tracked || untracked > 0) {
        await gitOk(path, ['add', '-A']);
        const message = `moat: uncommitted changes carried over from ${info.top}`;
        await gitOk(path, [...(await identityArgs(path)), 'commit', '--quiet', '--no-verify', '-m', message]);
        startCommit = (await gitOk(path, ['rev-parse', 'HEAD'])).trim();
      }
    }
  } catch (e) {
    await removeWorktreeFolder(info.mainRoot, path, branch);
    throw e;
  }

  const record: WorktreeRecord = {
    id: opts.id,
    branch,
    path,
    repoRoot: info.mainRoot,
    description: opts.description,
    base: opts.base,
    baseCommit: info.head,
    startCommit,
    createdAt: Date.now(),
    state: 'running',
    pid: process.pid,
    ...(opts.agentId === undefined ? {} : { agentId: opts.agentId }),
    ...(opts.sessionId === undefined ? {} : { sessionId: opts.sessionId }),
  };
  writeRecord(record);
  const inner = join(path, relative(info.top, cwd));
  // cwd may be a folder git does not track (empty, or untracked and not carried): make it.
  mkdirSync(inner, { recursive: true });
  return { record, cwd: inner, sourceTop: info.top };
}

/** Per-file counts and status of the agent's work (startCommit..tip). */
export async function worktreeChanges(record: WorktreeRecord, tip: string): Promise<WorktreeChanges> {
  const range = [record.startCommit, tip];
  const numstat = await gitOk(record.path, ['diff', '--numstat', '--no-renames', '-z', ...range]);
  const status = await gitOk(record.path, ['diff', '--name-status', '--no-renames', '-z', ...range]);
  const statusOf = new Map<string, string>();
  const st = status.split('\0');
  for (let i = 0; i + 1 < st.length; i += 2) statusOf.set(st[i + 1]!, st[i]!);
  const files: FileChange[] = [];
  for (const entry of numstat.split('\0')) {
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(entry);
    if (!m) continue;
    const path = m[3]!;
    files.push({
      path,
      status: statusOf.get(path) ?? 'M',
      added: m[1] === '-' ? null : Number(m[1]),
      removed: m[2] === '-' ? null : Number(m[2]),
    });
  }
  const diffStat = (await gitOk(record.path, ['diff', '--stat=100', '--no-color', ...range])).trimEnd();
  return { id: record.id, branch: record.branch, path: record.path, commit: tip, files, diffStat };
}

/**
 * Ends an agent's work in its worktree: commits whatever it left uncommitted
 * (message from its description), then either reports the changes or — when
 * the agent changed nothing — removes the worktree and its branch. Returns
 * undefined in that case.
 */
export async function finishWorktree(record: WorktreeRecord, message: string): Promise<WorktreeChanges | undefined> {
  await gitOk(record.path, ['add', '-A']);
  const staged = await git(record.path, ['diff', '--cached', '--quiet']);
  if (staged.code === 1) {
    await gitOk(record.path, [...(await identityArgs(record.path)), 'commit', '--quiet', '--no-verify', '-m', message]);
  }
  const tip = (await gitOk(record.path, ['rev-parse', 'HEAD'])).trim();
  const changed = tip !== record.startCommit && (await git(record.path, ['diff', '--quiet', record.startCommit, tip])).code === 1;
  if (!changed) {
    await removeWorktree(record);
    return undefined;
  }
  writeRecord({ ...record, state: 'ready' });
  return worktreeChanges(record, tip);
}

async function removeWorktreeFolder(repoRoot: string, path: string, branch: string): Promise<void> {
  await git(repoRoot, ['worktree', 'remove', '--force', '--force', path]);
  // A folder git no longer knew about (deleted by hand) leaves an entry behind.
  await git(repoRoot, ['worktree', 'prune']);
  await git(repoRoot, ['branch', '-D', branch]);
}

/** Removes the worktree folder, its branch and its record. */
export async function removeWorktree(record: WorktreeRecord): Promise<void> {
  await removeWorktreeFolder(record.repoRoot, record.path, record.branch);
  deleteRecord(record.repoRoot, record.id);
}
