/** How file tools turn the model's path into one they may touch. */
import { checkContainment, isWithin, normalizePath, relativeIfWithin, realPathOrSelf, nodeOs } from '../util/index.ts';
import { ToolError, type Access, type IntentContext, type ToolContext } from './types.ts';

/**
 * How file tools turn the model's path into one they may touch. Containment
 * itself lives in `util/containment.ts` (shared with the sandbox); this adds
 * the tool-side parts: `~`, approved paths and the ToolError.
 */

export interface ToolPath {
  /** Absolute, lexically normalised: what to show and to match rules on. */
  path: string;
  /** Symlinks resolved: what to open, and the key for `ctx.files`. */
  realPath: string;
}

/** `~` and `~/x` mean the home folder; `~user` is left alone (no shell here). */
export function expandHome(p: string): string {
  if (p === '~') return nodeOs().homedir();
  if (p.startsWith('~/')) return nodeOs().homedir() + p.slice(1);
  return p;
}

/** Absolute, normalised path of `p` for `CallIntent.paths`. Pure: never touches the disk. */
export function intentPath(ctx: Pick<IntentContext, 'cwd'>, p: string): string {
  return normalizePath(ctx.cwd, expandHome(p));
}

/** Short form for messages: relative to cwd when inside it, absolute otherwise. */
export function displayPath(ctx: Pick<IntentContext, 'cwd'>, abs: string): string {
  return relativeIfWithin(ctx.cwd, abs);
}


/**
 * Resolve `p` for a tool that will `access` it. Allowed: anything inside the
 * roots, or equal to / under a path the user or a rule approved for this call.
 * Throws a ToolError worded for the model otherwise.
 */
export function resolveToolPath(
  ctx: Pick<ToolContext, 'cwd' | 'roots' | 'approvedPaths'>,
  p: string,
  access: Access,
): ToolPath {
  const expanded = expandHome(p);
  // Approved paths are given lexically; compare both their spelling and their real location.
  const approved = ctx.approvedPaths.flatMap((a) => {
    const abs = normalizePath(ctx.cwd, a);
    return [abs, realPathOrSelf(abs)];
  });
  const result = checkContainment([...ctx.roots, ...approved], ctx.cwd, expanded);
  if (result.ok) return { path: result.path, realPath: result.realPath };
  const lexical = normalizePath(ctx.cwd, expanded);
  // A lexically approved path whose real location is elsewhere is still refused: the approval named this path.
  const verb = access === 'write' ? 'write to' : 'read';
  const approvedNote = approved.some((a) => isWithin(a, lexical)) ? ' (the approval covers the path, not where its symlinks lead)' : '';
  throw new ToolError(
    `Cannot ${verb} ${p}: ${result.reason}${approvedNote} Use a path inside the allowed folders, or ask the user to allow this one.`,
  );
}
