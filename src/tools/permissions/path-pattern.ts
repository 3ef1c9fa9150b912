/** The path patterns inside `Read(…)` and `Edit(…)` rules. */
import { isAbsolute, relative } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/**
 * What goes inside `Read(…)` and `Edit(…)`: a gitignore-style pattern, read as
 * Claude Code reads it:
 * - `//etc/**`: absolute (`/etc/**`);
 * - `~/.ssh/**`: under the home folder;
 * - `/src/**` and `./src/**`: anchored at the project root;
 * - `src/**`, `*.env`, `.env`: relative to the project root with gitignore's
 *   own rules, so a pattern without a slash matches at any depth (`*.env`
 *   matches `a/b/c.env`) and a folder name matches everything inside it.
 * A pattern ending in `/**` also matches the folder itself, so `Read(//etc/**)`
 * lets a tool list `/etc`.
 */

export type PathAnchor = 'absolute' | 'home' | 'project';

export interface PathPattern {
  anchor: PathAnchor;
  /** The gitignore pattern, relative to the anchor folder; empty means everything under it. */
  glob: string;
  /** Case-sensitive matcher (allow rules: never allow more than written). */
  exact: Ignore | null;
  /** Case-insensitive matcher (deny rules: `.ENV` is `.env` on a case-insensitive disk). */
  folded: Ignore | null;
  /** For `x/**`, the pattern for the folder `x` itself. */
  folder: { exact: Ignore; folded: Ignore } | null;
}

export interface PathBases {
  projectRoot: string;
  home: string;
}

function matcher(glob: string, ignorecase: boolean): Ignore {
  // A leading `!` or `#` would be read as negation or a comment.
  const safe = /^[!#]/.test(glob) ? `\\${glob}` : glob;
  return ignore({ ignorecase }).add(safe);
}

export function parsePathPattern(spec: string): PathPattern {
  let anchor: PathAnchor = 'project';
  let glob: string;
  if (spec.startsWith('//')) {
    anchor = 'absolute';
    glob = anchored(spec.slice(2));
  } else if (spec === '~' || spec.startsWith('~/')) {
    anchor = 'home';
    glob = anchored(spec.slice(2));
  } else if (spec.startsWith('/')) {
    glob = anchored(spec.slice(1));
  } else if (spec.startsWith('./')) {
    glob = anchored(spec.slice(2));
  } else {
    glob = spec;
  }
  if (glob === '' || glob === '/' || glob === '/**' || glob === '**') {
    return { anchor, glob: '', exact: null, folded: null, folder: null };
  }
  const folderGlob = glob.endsWith('/**') ? glob.slice(0, -3) : null;
  return {
    anchor,
    glob,
    exact: matcher(glob, false),
    folded: matcher(glob, true),
    folder: folderGlob ? { exact: matcher(folderGlob, false), folded: matcher(folderGlob, true) } : null,
  };
}

/** A leading slash anchors a gitignore pattern to its base folder. */
function anchored(rest: string): string {
  return rest === '' ? '' : `/${rest}`;
}

function anchorFolder(anchor: PathAnchor, bases: PathBases): string {
  switch (anchor) {
    case 'absolute':
      return '/';
    case 'home':
      return bases.home;
    case 'project':
      return bases.projectRoot;
  }
}

/** The folder a pattern's paths are relative to: `/`, the home folder or the project root. */
export function patternAnchorFolder(pattern: PathPattern, bases: PathBases): string {
  return anchorFolder(pattern.anchor, bases);
}

/** Does the pattern match `absPath` (absolute, normalised)? `fold` compares case-insensitively. */
export function pathPatternMatches(pattern: PathPattern, absPath: string, bases: PathBases, fold: boolean): boolean {
  return relativePathMatches(pattern, relative(anchorFolder(pattern.anchor, bases), absPath), fold);
}

/** Does the pattern match `rel`, a path relative to its anchor folder (as path.relative gives it)? */
export function relativePathMatches(pattern: PathPattern, rel: string, fold: boolean): boolean {
  if (rel === '..' || rel.startsWith('../') || isAbsolute(rel)) return false;
  if (pattern.exact === null || pattern.folded === null) return true;
  if (rel === '') return false;
  const main = fold ? pattern.folded : pattern.exact;
  const folder = pattern.folder ? (fold ? pattern.folder.folded : pattern.folder.exact) : null;
  try {
    return main.ignores(rel) || (folder?.ignores(rel) ?? false);
  } catch {
    // `ignore` refuses some names (e.g. with a trailing space); such a path matches nothing.
    return false;
  }
}
