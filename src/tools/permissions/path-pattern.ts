/** The path patterns inside `Read(…)` and `Edit(…)` rules, as parsed (matching them is path-pattern-match.ts). */
import type { PathAnchor, PathBases, PathPattern } from '../../contracts/index.ts';

export type { PathAnchor, PathBases, PathPattern };

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
  if (glob === '' || glob === '/' || glob === '/**' || glob === '**') return { anchor, glob: '', folderGlob: null };
  return { anchor, glob, folderGlob: glob.endsWith('/**') ? glob.slice(0, -3) : null };
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
