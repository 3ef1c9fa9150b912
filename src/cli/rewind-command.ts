/** `moat rewind`: a session's user messages with what each changed, and putting the code and/or the conversation back to just before one. */
import { resolve } from 'node:path';
import { changeSummary, projectCheckpoints, rewind, type RewindPoint } from '../checkpoints/index.ts';
import { loadConfig, moatPaths } from '../config/index.ts';
import { openStore } from '../store/index.ts';
import { MoatError } from '../util/index.ts';
import { EXIT } from './exit-codes.ts';
import { out } from './write-out.ts';

export interface RewindOptions {
  session?: string;
  to?: string;
  code?: boolean;
  conversation?: boolean;
  both?: boolean;
  dryRun?: boolean;
  force?: boolean;
  cwd?: string;
}

/** The list `moat rewind` prints without `--to`. */
export function pointLines(points: readonly RewindPoint[]): string[] {
  return points.map((p) => {
    const text = p.text.replace(/\s+/g, ' ').trim();
    return `${String(p.index).padStart(3)}  ${(text.length > 50 ? `${text.slice(0, 49)}…` : text).padEnd(50)}  ${changeSummary(p)}`;
  });
}

/** `--code`, `--conversation`, `--both`: at most one; none means both. */
function what(o: RewindOptions): { code: boolean; conversation: boolean } {
  const given = [o.code, o.conversation, o.both].filter(Boolean).length;
  if (given > 1) throw new MoatError('usage', 'give one of --code, --conversation and --both');
  if (o.code) return { code: true, conversation: false };
  if (o.conversation) return { code: false, conversation: true };
  return { code: true, conversation: true };
}

export async function rewindCommand(o: RewindOptions): Promise<number> {
  const cwd = resolve(o.cwd ?? process.cwd());
  const env = process.env;
  const { code, conversation } = what(o);
  const store = openStore(moatPaths(env).dbFile);
  try {
    const row = o.session === undefined ? store.sessions.latestForCwd(cwd) : store.sessions.require(store.sessions.resolvePrefix(o.session));
    if (!row) throw new MoatError('not_found', `no session in ${cwd} to rewind (give --session <id>)`);
    const settings = loadConfig({ cwd: row.cwd, env }).checkpoints;
    // Rewinding needs the checkpoints there are, even with new ones switched off.
    const checkpoints = projectCheckpoints(store, row.projectRoot, moatPaths(env).dataDir, { ...settings, enabled: true });
    const points = await checkpoints!.points(row.id);
    if (o.to === undefined) {
      if (points.length === 0) out(`session ${row.id} has no user messages\n`);
      else out(`session ${row.id}: moat rewind --to N puts things back to just before message N\n${pointLines(points).join('\n')}\n`);
      return EXIT.ok;
    }
    const n = Number(o.to);
    const point = Number.isInteger(n) ? points[n - 1] : undefined;
    if (!point) throw new MoatError('usage', `--to ${o.to}: the session has user messages 1 to ${points.length}`);
    const report = await rewind({ sessionId: row.id, turn: point.turn, code, conversation, force: o.force ?? false, dryRun: o.dryRun ?? false }, checkpoints, (turn) => store.checkpoints.branchOff(row.id, point.seq, turn), settings.maxFileBytes);
    const lines: string[] = [];
    if (code) {
      if (report.plan?.target === undefined) lines.push(`no files changed after message ${n}: the code is as it was`);
      else if (report.files.length === 0) lines.push(`the files are already as they were before message ${n}`);
      else lines.push(`${o.dryRun ? 'would change' : 'changed'} ${report.files.length} file${report.files.length === 1 ? '' : 's'} back to before message ${n}:`, ...report.files.map((f) => `  ${f}`));
      lines.push(...report.leftOut);
      if (!o.dryRun && report.saved !== undefined && report.files.length > 0) lines.push(`the files as they were before this rewind are kept in checkpoint ${report.saved.slice(0, 12)}`);
    }
    if (conversation) {
      if (o.dryRun) lines.push(`would rewind the conversation to before message ${n}; the rest would be kept as a saved branch`);
      else lines.push(`conversation rewound to before message ${n}; the old branch is session ${report.branch ?? ''} (moat sessions show ${report.branch ?? ''})`);
    }
    out(`${lines.join('\n')}\n`);
    return EXIT.ok;
  } finally {
    store.close();
  }
}
