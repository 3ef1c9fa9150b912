/**
 * Which mounts make the deny lists hold inside the writable roots: existing
 * paths re-bound read-only, absent ones made uncreatable by a mount on their
 * first missing component (@anthropic-ai/sandbox-runtime's approach; always an
 * empty read-only folder here, see bwrap-argv.ts), denied
 * reads masked, and every folder between such a mount and its writable root
 * pinned so that it cannot be renamed away with the mount inside it.
 */
import { accessSync, constants, lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isWithin } from '../../util/index.ts';
import { replaceableLinks, type GuardedLink } from './link-guard.ts';
import { isHeldPlaceholder } from './placeholders.ts';

export interface Mount {
  path: string;
  dir: boolean;
}

export interface MountPlan {
  /** Folders bound read-only onto themselves beneath the writable roots: the kernel refuses to rename a mount point. */
  pins: string[];
  /** Existing paths re-mounted read-only inside the writable roots. */
  readOnly: string[];
  /** Where absent denied paths would be created: bubblewrap makes an empty mount point for each, removed after the command (placeholders.ts). */
  placeholders: string[];
  /** Denied reads: unreadable and unwritable. */
  masks: Mount[];
  /** Every path a write refusal may name (for the write monitor). */
  refused: string[];
  /** Symlinks inside the writable roots on the way to a protected path: no mount covers their entries, so they are checked after the command (link-guard.ts). */
  links: GuardedLink[];
}

/** Symlinks followed while looking for where an absent path would be created. */
const MAX_LINKS = 8;

type Located = { kind: 'exists'; forms: Mount[] } | { kind: 'missing'; dest: string } | { kind: 'under-file'; file: string } | { kind: 'unknown' };

/**
 * Where an existing path really is, every symlink on the way resolved: a
 * mount must name that, as bubblewrap cannot mount onto a link (nor through
 * one into the new root). The links themselves are link-guard.ts's.
 */
function existingForms(path: string): Mount[] {
  try {
    const real = realpathSync(path);
    return [{ path: real, dir: statSync(real).isDirectory() }];
  } catch {
    // A dangling link: locate() follows it.
    return [];
  }
}

/**
 * Where a write to `path` would land: on an existing file or folder, on the
 * first component that does not exist yet (after following symlinks, as the
 * kernel would), or nowhere because an existing file lies on the way.
 */
function locate(path: string, links = 0): Located {
  if (!isHeldPlaceholder(path) && existingForms(path).length > 0) return { kind: 'exists', forms: existingForms(path) };
  const parts = path.split('/').filter((p) => p !== '');
  let at = '/';
  for (let i = 0; i < parts.length; i++) {
    const next = join(at, parts[i] as string);
    // Another command's mount point is not the user's file: it is where this refusal goes too.
    if (isHeldPlaceholder(next)) return { kind: 'missing', dest: next };
    let st;
    try {
      st = lstatSync(next);
    } catch {
      return { kind: 'missing', dest: next };
    }
    if (st.isSymbolicLink()) {
      try {
        at = realpathSync(next);
        st = statSync(at);
      } catch {
        // A dangling link: a write through it creates its target, so that is what must not be created.
        if (links >= MAX_LINKS) return { kind: 'unknown' };
        return locate(resolve(at, readlinkSync(next), ...parts.slice(i + 1)), links + 1);
      }
    } else {
      at = next;
    }
    // Nothing can be created below a file (a worktree's `.git` is one) while it is there: keep it there.
    if (i < parts.length - 1 && !st.isDirectory()) return { kind: 'under-file', file: at };
  }
  return { kind: 'exists', forms: existingForms(at) };
}

/** bubblewrap makes the mount point as this user; where that is refused, the command could not create the path either. */
function makeable(dest: string): boolean {
  const parent = dirname(dest);
  try {
    accessSync(parent, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    // The owner may change the mode back, and bubblewrap's namespace lets it create there.
    try {
      return statSync(parent).uid === process.geteuid?.();
    } catch {
      return false;
    }
  }
}

export function planMounts(writeRoots: readonly string[], denyWrite: readonly string[], denyRead: readonly string[]): MountPlan {
  const writable = (p: string): boolean => writeRoots.some((r) => isWithin(r, p));
  const readOnly: string[] = [];
  const absent = new Set<string>();
  const refused = new Set<string>();
  const links: GuardedLink[] = [];
  for (const path of denyWrite) {
    const found = locate(path);
    refused.add(path);
    for (const link of replaceableLinks(path, writable)) {
      if (links.some((l) => l.path === link.path)) continue;
      links.push(link);
      refused.add(link.path);
    }
    if (found.kind === 'exists') {
      for (const f of found.forms) if (writable(f.path) && !readOnly.includes(f.path)) readOnly.push(f.path);
    } else if (found.kind === 'under-file') {
      if (writable(found.file) && !readOnly.includes(found.file)) readOnly.push(found.file);
    } else if (found.kind === 'missing' && writable(found.dest)) {
      absent.add(found.dest);
    }
  }
  const masks: Mount[] = [];
  for (const p of denyRead) {
    for (const e of existingForms(p)) {
      if (masks.some((m) => isWithin(m.path, e.path))) continue;
      masks.push(e);
    }
  }
  // Already read-only (inside a re-mounted or masked folder), or inside another placeholder: nothing to add.
  const covered = (p: string): boolean => readOnly.some((r) => r !== p && isWithin(r, p)) || masks.some((m) => m.dir && isWithin(m.path, p));
  const placeholders: string[] = [];
  for (const path of [...absent].sort((a, b) => a.length - b.length)) {
    if (covered(path) || placeholders.some((p) => isWithin(p, path)) || !makeable(path)) continue;
    placeholders.push(path);
    refused.add(path);
  }
  for (const p of readOnly) refused.add(p);
  // A link's folder is pinned too: renaming it away would take the link along and leave its name free.
  const seeds = [...readOnly, ...placeholders, ...masks.map((m) => m.path), ...links.map((l) => l.path)];
  return { pins: pinsFor(seeds, writeRoots), readOnly, placeholders, masks, refused: [...refused], links };
}

/** Every existing folder between a seed and the writable root around it (the roots themselves are mount points already). */
function pinsFor(seeds: readonly string[], writeRoots: readonly string[]): string[] {
  const pins = new Set<string>();
  for (const seed of seeds) {
    for (let dir = dirname(seed); dir !== '/' && writeRoots.some((r) => isWithin(r, dir)); dir = dirname(dir)) {
      if (pins.has(dir) || writeRoots.includes(dir)) continue;
      try {
        if (statSync(dir).isDirectory()) pins.add(dir);
      } catch {
        // Not there: nothing to rename.
      }
    }
  }
  // Shallow first, as bubblewrap mounts them in order.
  return [...pins].sort((a, b) => a.split('/').length - b.split('/').length);
}
