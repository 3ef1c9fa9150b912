/** The folder or file Glob, Grep and LS search. */
import { statSync } from 'node:fs';
import { displayPath, resolveToolPath, type ToolPath } from '../../paths.ts';
import { ToolError, type ToolContext } from '../../types.ts';

/** The folder (or single file) glob, grep and ls search: `path` or the working folder, contained. */
export function resolveSearchPath(
  ctx: Pick<ToolContext, 'cwd' | 'roots' | 'approvedPaths'>,
  path: string | undefined,
): ToolPath & { isDir: boolean } {
  const target = resolveToolPath(ctx, path ?? '.', 'read');
  try {
    return { ...target, isDir: statSync(target.realPath).isDirectory() };
  } catch {
    throw new ToolError(`Path does not exist: ${displayPath(ctx, target.path)} (working folder: ${ctx.cwd}). Check the path.`);
  }
}
