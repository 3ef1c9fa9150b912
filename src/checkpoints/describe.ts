/** Words for checkpoints: a code plan's files, what a rewind leaves out, a message's changes, for the CLI and the TUI alike. */
import type { LeftOutFile } from '../store/index.ts';
import type { CodePlan, RewindPoint } from './project-checkpoints.ts';

const mb = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** One line per file a code rewind changes: `restore`, `re-create` or `delete`. */
export function planLines(plan: CodePlan): string[] {
  return plan.changes.map((c) => {
    const verb = c.status === 'D' ? 'delete' : c.status === 'A' ? 're-create' : 'restore';
    return `${verb.padEnd(9)} ${c.path}`;
  });
}

/** What the rewind does not touch: files the checkpoint does not hold, and folders `.gitignore` excludes. */
export function leftOutLines(leftOut: readonly LeftOutFile[], ignored: readonly string[], maxFileBytes: number): string[] {
  const lines = leftOut.map((l) =>
    l.reason === 'too_large' ? `left as it is: ${l.path} (${mb(l.size ?? 0)}, over the ${mb(maxFileBytes)} checkpoint limit)` : `left as it is: ${l.path} (a repository of its own)`,
  );
  if (ignored.length > 0) {
    const shown = ignored.slice(0, 5).join(', ') + (ignored.length > 5 ? `, and ${ignored.length - 5} more` : '');
    lines.push(`left as they are: folders .gitignore excludes (${shown})`);
  }
  return lines;
}

/** `a.txt +1 -1, b.txt +0 -3`: what a message's run changed, shortened. */
export function changeSummary(point: RewindPoint, max = 3): string {
  if (point.changes.length === 0) return 'no file changes';
  const parts = point.changes.slice(0, max).map((c) => (c.binary ? `${c.path} (binary)` : `${c.path} +${c.added} -${c.removed}`));
  return parts.join(', ') + (point.changes.length > max ? `, and ${point.changes.length - max} more` : '');
}
