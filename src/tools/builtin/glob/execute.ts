/** What the Glob tool does once called: walks from the pattern's literal folder and lists matches, newest first. */
import { join } from 'node:path';
import { displayPath, resolveToolPath } from '../../paths.ts';
import { ToolError, type ToolContext, type ToolResult } from '../../types.ts';
import { plural } from '../shared/format.ts';
import { globFilter } from '../shared/glob-filter.ts';
import { resolveSearchPath } from '../shared/search-root.ts';
import { mtimeOf, walkFiles } from '../shared/walk.ts';
import { plan, splitStaticPrefix, type GlobInput } from './schema.ts';

const MAX_GLOB_RESULTS = 200;
/** Yield to the event loop this often, so an abort can land during a long walk. */
const YIELD_EVERY = 2000;

export async function executeGlob(input: GlobInput, ctx: ToolContext): Promise<ToolResult> {
  const planned = plan(input.pattern, input.path);
  const root = resolveSearchPath(ctx, planned.base);
  if (!root.isDir) throw new ToolError(`${displayPath(ctx, root.path)} is a file, not a folder. Give a folder as path.`);
  const { prefix } = splitStaticPrefix(planned.pattern);
  // The literal prefix may hold `..` or a symlink: contain it like any other path.
  const walkRoot = prefix === '' ? root.realPath : resolveToolPath(ctx, join(root.path, prefix), 'read').realPath;
  const relBase = prefix === '' ? '' : `${prefix}/`;
  const filter = globFilter([planned.pattern]);
  // Matches are reported under the path the model asked for, not the symlink-resolved one.
  const shownBase = root.path;

  const found: { path: string; mtime: number }[] = [];
  let seen = 0;
  for (const entry of walkFiles(walkRoot, { floor: root.realPath })) {
    if (++seen % YIELD_EVERY === 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (ctx.signal.aborted) throw new ToolError('Aborted.');
    }
    const rel = relBase + entry.rel;
    if (!filter.matches(rel, entry.name)) continue;
    found.push({ path: join(shownBase, rel), mtime: 0 });
  }
  if (found.length === 0) {
    const where = displayPath(ctx, root.path);
    return { content: `No files found matching ${input.pattern} in ${where === '.' ? 'the working folder' : where}.`, display: { type: 'matches', count: 0, truncated: false } };
  }
  for (const f of found) f.mtime = mtimeOf(f.path);
  // Newest first: recently touched files are usually the ones that matter.
  found.sort((a, b) => b.mtime - a.mtime || (a.path < b.path ? -1 : 1));
  const truncated = found.length > MAX_GLOB_RESULTS;
  const lines = found.slice(0, MAX_GLOB_RESULTS).map((f) => displayPath(ctx, f.path));
  if (truncated) {
    lines.push(`(Showing ${MAX_GLOB_RESULTS} of ${plural(found.length, 'file')}, newest first. Use a more specific pattern or path to see the rest.)`);
  }
  return { content: lines.join('\n'), display: { type: 'matches', count: found.length, truncated } };
}
