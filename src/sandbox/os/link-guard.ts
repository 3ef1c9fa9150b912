/**
 * Symlinks that lead to protected paths from inside a writable root (a
 * `.claude` folder or `.mcp.json` linked from a dotfiles repository). No mount
 * can cover a symlink's own directory entry — a mount lands on its target —
 * so a command could delete the link and put a file of its own in its place.
 * The kernel keeps the target read-only; these entries are checked after the
 * command instead, and a replaced or removed link is put back before anything
 * reads the path again.
 */
import { lstatSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { SandboxViolation } from './types.ts';

export interface GuardedLink {
  /** Where the link is (its folder is a real path). */
  path: string;
  /** What it says, as readlink gives it. */
  target: string;
}

/** Links followed on the way to one path before giving up (the kernel's own limit is 40). */
const MAX_LINKS = 16;

/**
 * Every symlink met on the way to `path`, the last component included, whose
 * own entry lies where `writable` says a command may write. A link to a link
 * is followed one step at a time, so each entry of the chain is found.
 */
export function replaceableLinks(path: string, writable: (p: string) => boolean): GuardedLink[] {
  const found: GuardedLink[] = [];
  let rest = path.split('/').filter((p) => p !== '');
  let at = '/';
  let followed = 0;
  while (rest.length > 0) {
    const next = join(at, rest[0] as string);
    rest = rest.slice(1);
    let isLink: boolean;
    try {
      isLink = lstatSync(next).isSymbolicLink();
    } catch {
      break;
    }
    if (!isLink) {
      at = next;
      continue;
    }
    if (followed++ >= MAX_LINKS) break;
    const target = readlinkSync(next);
    if (writable(next) && !found.some((l) => l.path === next)) found.push({ path: next, target });
    // Restart from the root with the link replaced by what it says.
    rest = [...resolve(dirname(next), target).split('/').filter((p) => p !== ''), ...rest];
    at = '/';
  }
  return found;
}

/** After the command: each guarded link still there and unchanged, or put back and reported. */
export function restoreLinks(links: readonly GuardedLink[]): SandboxViolation[] {
  const out: SandboxViolation[] = [];
  for (const link of links) {
    try {
      if (lstatSync(link.path).isSymbolicLink() && readlinkSync(link.path) === link.target) continue;
    } catch {
      // Removed: put back below.
    }
    try {
      // Whatever took its place was made by the command (rm does not follow a link it removes).
      rmSync(link.path, { recursive: true, force: true });
      symlinkSync(link.target, link.path);
      out.push({ kind: 'write', target: link.path, message: `${link.path} is protected: the command replaced the link, and moat put it back` });
    } catch (e) {
      out.push({ kind: 'write', target: link.path, message: `${link.path} is protected: the command replaced the link, and moat could not put it back (${(e as Error).message})` });
    }
  }
  return out;
}
