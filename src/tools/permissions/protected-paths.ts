/**
 * The paths inside a root that the file tools never write without asking:
 * the OS sandbox's own protected list (git's config, hooks and pointer files,
 * the project's settings, commands, agents, skills, `.moat/`, `.mcp.json`,
 * `.agents/`), so a write that would widen what runs next is a person's
 * decision in every mode but bypassPermissions, and denied in `-p`.
 */
import { relative, sep } from 'node:path';
import { PROTECTED_IN_ROOT } from '../../sandbox/index.ts';
import { isWithin, resolveReal } from '../../util/index.ts';

/** The list split into path segments; `*` stands for any one segment. */
const PATTERNS: readonly (readonly string[])[] = PROTECTED_IN_ROOT.map((p) => p.split('/'));

/** macOS and Windows folders are case-insensitive by default: `.GIT/config` is `.git/config` there. */
const fold = process.platform === 'darwin' || process.platform === 'win32' ? (s: string) => s.toLowerCase() : (s: string) => s;

/** The protected entry `rel` (a path relative to a root) is, or lies under. */
function matchIn(rel: string): string | undefined {
  const parts = rel.split(sep).map(fold);
  const hit = PATTERNS.find((pattern) => pattern.length <= parts.length && pattern.every((seg, i) => seg === '*' || fold(seg) === parts[i]));
  return hit?.join('/');
}

/**
 * The protected entry `path` (absolute) falls on under one of `roots`, by its
 * spelling or by where its symlinks lead (a link in the folder to
 * `.git/config` is `.git/config`); undefined when it is none.
 */
export function protectedEntry(path: string, roots: readonly string[]): string | undefined {
  const real = resolveReal(path);
  const forms = real.ok && real.realPath !== path ? [path, real.realPath] : [path];
  for (const form of forms) {
    for (const root of roots) {
      if (form === root || !isWithin(root, form)) continue;
      const hit = matchIn(relative(root, form));
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}
