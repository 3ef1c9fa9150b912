/** The record moat keeps beside each worktree it made. */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What moat remembers about one worktree it made, beside the worktree itself
 * (`.moat/worktrees/<id>.json`, excluded from git like the folder). Git holds
 * the truth about files and branches; this adds what git cannot know: which
 * commit the agent's own work starts from, its description, who made it.
 */
export interface WorktreeRecord {
  id: string;
  branch: string;
  /** The worktree folder. */
  path: string;
  /** The main working tree of the repository (where `.moat/worktrees` lives). */
  repoRoot: string;
  description: string;
  base: 'head' | 'working-tree';
  /** The HEAD the branch was made from. */
  baseCommit: string;
  /** Where the agent's own work starts: baseCommit, or the commit carrying the parent's uncommitted changes. */
  startCommit: string;
  createdAt: number;
  /** running: an agent works in it; ready: finished with changes to merge. */
  state: 'running' | 'ready';
  /** The moat process working in it while `running`. */
  pid: number;
  agentId?: string;
  sessionId?: string;
}

export function worktreesDir(repoRoot: string): string {
  return join(repoRoot, '.moat', 'worktrees');
}

function recordFile(repoRoot: string, id: string): string {
  return join(worktreesDir(repoRoot), `${id}.json`);
}

export function writeRecord(record: WorktreeRecord): void {
  mkdirSync(worktreesDir(record.repoRoot), { recursive: true });
  const file = recordFile(record.repoRoot, record.id);
  // Write then rename: a concurrent `moat worktrees list` never reads half a file.
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(tmp, file);
}

export function readRecord(repoRoot: string, id: string): WorktreeRecord | undefined {
  try {
    return JSON.parse(readFileSync(recordFile(repoRoot, id), 'utf8')) as WorktreeRecord;
  } catch {
    return undefined;
  }
}

export function deleteRecord(repoRoot: string, id: string): void {
  rmSync(recordFile(repoRoot, id), { force: true });
}

/** Every record of the repository, oldest first. Unreadable files are skipped, not fatal. */
export function listRecords(repoRoot: string): WorktreeRecord[] {
  let names: string[];
  try {
    names = readdirSync(worktreesDir(repoRoot));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith('.json'))
    .map((n) => readRecord(repoRoot, n.slice(0, -'.json'.length)))
    .filter((r): r is WorktreeRecord => r !== undefined)
    .sort((a, b) => a.createdAt - b.createdAt);
}

/** True while the process that recorded itself is alive (a crashed moat leaves `running` behind). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
