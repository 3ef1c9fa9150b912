/** What differs between two checkpoints: the files (for a restore) and their added and removed lines (for the rewind list). */
import type { ShadowGit } from './shadow-git.ts';

/** One file that differs; `A`: only in `to`, `D`: only in `from`, `M`: content, `T`: kind (file, link). */
export interface TreeChange {
  path: string;
  status: 'A' | 'D' | 'M' | 'T';
  fromMode: string;
  toMode: string;
  fromBlob: string;
  toBlob: string;
}

export interface LineStat {
  path: string;
  added: number;
  removed: number;
  /** Git saw binary content: no line counts. */
  binary: boolean;
}

const ZERO = '0000000000000000000000000000000000000000';

/** `git diff-tree -r -z --no-renames from to`, parsed; gitlinks (nested repositories) are left out. */
export async function treeDiff(git: ShadowGit, from: string, to: string): Promise<TreeChange[]> {
  if (from === to) return [];
  const fields = (await git.run(['diff-tree', '-r', '-z', '--no-renames', from, to])).split('\0');
  const out: TreeChange[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const head = fields[i]!;
    const path = fields[i + 1]!;
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([ADMT])/.exec(head);
    if (!m) continue;
    const [, fromMode, toMode, fromBlob, toBlob, status] = m as unknown as [string, string, string, string, string, TreeChange['status']];
    if (fromMode === '160000' || toMode === '160000') continue;
    out.push({ path, status, fromMode, toMode, fromBlob: fromBlob === ZERO ? '' : fromBlob, toBlob: toBlob === ZERO ? '' : toBlob });
  }
  return out;
}

/** Added and removed lines per file between two checkpoints (`git diff --numstat`). */
export async function lineStats(git: ShadowGit, from: string, to: string): Promise<LineStat[]> {
  if (from === to) return [];
  const fields = (await git.run(['diff', '--numstat', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', from, to])).split('\0');
  const out: LineStat[] = [];
  for (const f of fields) {
    const m = /^(\d+|-)\t(\d+|-)\t([\s\S]+)$/.exec(f.replace(/^\n/, ''));
    if (!m) continue;
    const binary = m[1] === '-';
    out.push({ path: m[3]!, added: binary ? 0 : Number(m[1]), removed: binary ? 0 : Number(m[2]), binary });
  }
  return out;
}

/** Reads blobs in one `git cat-file --batch`; the map is keyed by blob id. */
export async function readBlobs(git: ShadowGit, ids: readonly string[]): Promise<Map<string, Buffer>> {
  const unique = [...new Set(ids)];
  const blobs = new Map<string, Buffer>();
  if (unique.length === 0) return blobs;
  const r = await git.exec(['cat-file', '--batch'], `${unique.join('\n')}\n`);
  const buf = r.stdout;
  let at = 0;
  for (const id of unique) {
    const nl = buf.indexOf(0x0a, at);
    if (nl < 0) break;
    const header = buf.subarray(at, nl).toString('utf8');
    const m = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
    if (!m) throw new Error(`cat-file could not read ${id}: ${header}`);
    const size = Number(m[3]);
    blobs.set(id, Buffer.from(buf.subarray(nl + 1, nl + 1 + size)));
    at = nl + 1 + size + 1;
  }
  return blobs;
}
