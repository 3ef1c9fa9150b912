/** What the LS tool does once called: a folder's entries, folders first, with sizes and link targets. */
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { displayPath } from '../../paths.ts';
import { ToolError, type ToolContext, type ToolResult } from '../../types.ts';
import { formatSize, plural } from '../shared/format.ts';
import { globFilter } from '../shared/glob-filter.ts';
import { resolveSearchPath } from '../shared/search-root.ts';
import type { LsInput } from './schema.ts';

const MAX_LS_ENTRIES = 1000;

interface Entry {
  name: string;
  kind: 'dir' | 'file' | 'symlink' | 'other';
  size: number;
  target?: string;
}

function describe(e: Entry): string {
  switch (e.kind) {
    case 'dir':
      return `${e.name}/`;
    case 'file':
      return `${e.name}  (${formatSize(e.size)})`;
    case 'symlink':
      return `${e.name} -> ${e.target ?? '?'}`;
    case 'other':
      return `${e.name}  (special file)`;
  }
}

function inspect(dir: string, name: string): Entry {
  try {
    const st = lstatSync(`${dir}/${name}`);
    if (st.isSymbolicLink()) {
      let target: string | undefined;
      try {
        target = readlinkSync(`${dir}/${name}`);
      } catch {
        target = undefined;
      }
      return { name, kind: 'symlink', size: st.size, ...(target === undefined ? {} : { target }) };
    }
    if (st.isDirectory()) return { name, kind: 'dir', size: 0 };
    if (st.isFile()) return { name, kind: 'file', size: st.size };
    return { name, kind: 'other', size: 0 };
  } catch {
    // Vanished between readdir and lstat: still worth showing as a name.
    return { name, kind: 'other', size: 0 };
  }
}

export async function executeLs(input: LsInput, ctx: ToolContext): Promise<ToolResult> {
  const root = resolveSearchPath(ctx, input.path);
  const shown = displayPath(ctx, root.path);
  if (!root.isDir) throw new ToolError(`${shown} is a file, not a folder. Use read to read it.`);
  let names: string[];
  try {
    names = readdirSync(root.realPath);
  } catch {
    throw new ToolError(`Cannot list ${shown}: permission denied.`);
  }
  const skip = input.ignore !== undefined && input.ignore.length > 0 ? globFilter(input.ignore) : undefined;
  const entries = names
    .filter((n) => skip === undefined || !skip.matches(n, n))
    .map((n) => inspect(root.realPath, n))
    .sort((a, b) => Number(b.kind === 'dir') - Number(a.kind === 'dir') || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const display = { type: 'listing', path: root.path, entries: entries.length } as const;
  if (entries.length === 0) return { content: `${shown}/ is empty.`, display };
  const lines = entries.slice(0, MAX_LS_ENTRIES).map((e) => `- ${describe(e)}`);
  const header = `${shown === '.' ? root.path : shown}/ (${plural(entries.length, 'entry', 'entries')})`;
  if (entries.length > MAX_LS_ENTRIES) {
    lines.push(`(Showing ${MAX_LS_ENTRIES} of ${entries.length} entries. Use glob to find specific files.)`);
  }
  return { content: `${header}\n${lines.join('\n')}`, display };
}
