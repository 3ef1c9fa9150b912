/** Path containment: whether a path stays inside the allowed roots. */
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { errnoCode } from './errors.ts';

/**
 * Path containment: the one place that decides whether a path stays inside a
 * set of allowed roots. Built-in tools use it through `tools/paths.ts`, and the
 * WebAssembly sandbox's filesystem host uses it directly, so it knows nothing
 * of tools, contexts or permissions: roots and a path in, a verdict out.
 *
 * The check is done twice, on purpose: once lexically (so `../` that climbs out
 * is refused before touching the disk) and once on the real path (so a symlink
 * inside a root cannot be used to reach outside it).
 */

export type ContainmentResult =
  | {
      ok: true;
      /** Absolute, lexically normalised path (what the caller asked for). */
      path: string;
      /** The same path with every existing symlink resolved; use it for I/O. */
      realPath: string;
    }
  | { ok: false; reason: string };

/** Absolute, lexically normalised form of `p` (relative paths are taken from `cwd`). Never touches the disk. */
export function normalizePath(cwd: string, p: string): string {
  return resolve(cwd, p);
}

/** True when `child` equals `parent` or lies under it. Both must be absolute and normalised. */
export function isWithin(parent: string, child: string): boolean {
  if (child === parent) return true;
  const prefix = parent.endsWith(sep) ? parent : parent + sep;
  return child.startsWith(prefix);
}

function within(roots: readonly string[], p: string): boolean {
  return roots.some((root) => isWithin(root, p));
}

function describeRoots(roots: readonly string[]): string {
  if (roots.length === 0) return 'no folders are allowed';
  return `allowed: ${roots.join(', ')}`;
}

type RealResolution = { ok: true; realPath: string } | { ok: false; reason: string };

/**
 * Real path of `abs`, resolving symlinks in every component that exists. Parts
 * below the deepest existing ancestor are appended unchanged (a file about to
 * be created). A component that is a symlink to nothing is refused: writing
 * through it would create its target, wherever that is.
 */
export function resolveReal(abs: string): RealResolution {
  const missing: string[] = [];
  let existing = abs;
  for (;;) {
    try {
      const real = realpathSync.native(existing);
      if (missing.length === 0) return { ok: true, realPath: real };
      const first = join(real, missing[0] ?? '');
      const dangling = danglingTarget(first);
      if (dangling !== undefined) {
        return {
          ok: false,
          reason: `${join(existing, missing[0] ?? '')} is a symlink to ${dangling}, which does not exist; refusing to follow a dangling symlink. Use the target path directly if that is what you mean.`,
        };
      }
      return { ok: true, realPath: join(real, ...missing) };
    } catch (e) {
      const code = errnoCode(e);
      if (code === 'ELOOP') return { ok: false, reason: `${existing} is part of a symlink loop.` };
      if (code !== 'ENOENT' && code !== 'ENOTDIR') {
        return { ok: false, reason: `cannot resolve ${existing}: ${code ?? String(e)}` };
      }
      const parent = dirname(existing);
      // The filesystem root always exists; reaching it means realpath failed for another reason.
      if (parent === existing) return { ok: false, reason: `cannot resolve ${abs}` };
      missing.unshift(basename(existing));
      existing = parent;
    }
  }
}

/** The link text when `p` is a symlink (its target is known not to resolve), else undefined. */
function danglingTarget(p: string): string | undefined {
  try {
    if (!lstatSync(p).isSymbolicLink()) return undefined;
    return readlinkSync(p);
  } catch {
    return undefined;
  }
}

/**
 * Decide whether `p` (relative to `cwd`, or absolute; `~` already expanded by
 * the caller) stays inside one of `roots` (real paths). The reason on refusal
 * is written for the model: it says what was wrong and what is allowed.
 */
export function checkContainment(roots: readonly string[], cwd: string, p: string): ContainmentResult {
  if (p.length === 0) return { ok: false, reason: 'the path is empty; give a file or folder path.' };
  if (p.includes('\0')) return { ok: false, reason: 'the path contains a NUL byte.' };
  const path = normalizePath(cwd, p);
  const lexicallyInside = within(roots, path);
  const real = resolveReal(path);
  if (real.ok && within(roots, real.realPath)) return { ok: true, path, realPath: real.realPath };
  // Say why in the terms the model used: a `..` climb, an outside path, or a symlink.
  if (!lexicallyInside) {
    const climbs = !isAbsolute(p) && p.split(/[\\/]/).includes('..');
    const what = climbs ? `${p} climbs out to ${path}, which is` : `${path} is`;
    return { ok: false, reason: `${what} outside the allowed folders (${describeRoots(roots)}).` };
  }
  if (!real.ok) return real;
  return {
    ok: false,
    reason: `${path} resolves through a symlink to ${real.realPath}, which is outside the allowed folders (${describeRoots(roots)}).`,
  };
}

/** `abs` relative to `base` when it lies under it (for short display), else `abs` itself. */
export function relativeIfWithin(base: string, abs: string): string {
  if (!isWithin(base, abs)) return abs;
  return relative(base, abs) || '.';
}
