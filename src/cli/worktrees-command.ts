/** `moat worktrees list|diff|merge|rm`. */
import { resolve } from 'node:path';
import { deleteWorktree, diffWorktree, findWorktree, listWorktrees, mergeWorktree, type WorktreeItem } from '../agent/index.ts';
import { EXIT } from './exit-codes.ts';
import { withMergeCheckpoint } from './merge-checkpoint.ts';
import { err, out } from './write-out.ts';
import { formatAge } from '../util/index.ts';


function filesCell(i: WorktreeItem): string {
  if (!i.changes) return '-';
  const added = i.changes.files.reduce((n, f) => n + (f.added ?? 0), 0);
  const removed = i.changes.files.reduce((n, f) => n + (f.removed ?? 0), 0);
  return `${i.changes.files.length} files +${added} -${removed}`;
}

const cwdOf = (opts: { repo?: string }) => resolve(opts.repo ?? process.cwd());

/** `moat worktrees list|diff|merge|rm`: the branches sub-agents and `-p --worktree` sessions left to merge. */
export const worktreesCommands = {
  async worktreesList(opts: { repo?: string }): Promise<number> {
    const items = await listWorktrees(cwdOf(opts));
    if (items.length === 0) {
      out('no moat worktrees in this repository\n');
      return EXIT.ok;
    }
    for (const i of items) {
      const r = i.record;
      out(`${r.id}  ${i.state.padEnd(11)}  ${formatAge(r.createdAt).padStart(8)}  ${filesCell(i).padEnd(20)}  ${r.branch}  ${r.description.replace(/\s+/g, ' ').slice(0, 60)}\n`);
    }
    return EXIT.ok;
  },

  async worktreesDiff(id: string, opts: { repo?: string; stat?: boolean }): Promise<number> {
    const item = await findWorktree(cwdOf(opts), id);
    out(await diffWorktree(item, opts.stat ?? false));
    return EXIT.ok;
  },

  async worktreesMerge(id: string, opts: { repo?: string }): Promise<number> {
    const cwd = cwdOf(opts);
    const item = await findWorktree(cwd, id);
    const r = item.record;
    const result = await withMergeCheckpoint(r, cwd, () => mergeWorktree(cwd, item), (line) => err(`moat: ${line}\n`));
    switch (result.kind) {
      case 'merged':
        out(`merged ${r.branch} into the current branch\n${result.summary ? `${result.summary}\n` : ''}`);
        out(`remove the worktree and its branch with: moat worktrees rm ${r.id}\n`);
        return EXIT.ok;
      case 'up_to_date':
        out(`${r.branch} is already merged into the current branch (moat worktrees rm ${r.id} removes it)\n`);
        return EXIT.ok;
      case 'conflict':
        err(
          [
            `moat: merging ${r.branch} stopped with conflicts in:`,
            ...result.files.map((f) => `  ${f}`),
            'The merge is in progress (git status shows it). Either resolve the conflicts, `git add` the files and `git commit`,',
            'or undo the merge with `git merge --abort`.',
            '',
          ].join('\n'),
        );
        return EXIT.error;
      case 'refused':
        err(`moat: git refused to merge ${r.branch}; nothing was changed: ${result.reason}\n`);
        return EXIT.error;
    }
  },

  async worktreesRm(id: string, opts: { repo?: string; force?: boolean }): Promise<number> {
    const item = await findWorktree(cwdOf(opts), id);
    await deleteWorktree(item, opts.force ?? false);
    out(`removed worktree ${item.record.id} and branch ${item.record.branch}\n`);
    return EXIT.ok;
  },
};
