/**
 * Matching `Read(…)`/`Edit(…)` path patterns, with gitignore's own rules (the
 * `ignore` package). The matchers are built on a pattern's first match, not
 * when the rule is parsed at start-up: rules are parsed before the first
 * request, and matching starts with the first permission check or command.
 */
import { isAbsolute, relative } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { patternAnchorFolder, type PathBases, type PathPattern } from './path-pattern.ts';

interface Matchers {
  /** Case-sensitive (allow rules: never allow more than written). */
  exact: Ignore;
  /** Case-insensitive (deny rules: `.ENV` is `.env` on a case-insensitive disk). */
  folded: Ignore;
  /** For `x/**`, the folder `x` itself. */
  folder: { exact: Ignore; folded: Ignore } | null;
}

const built = new WeakMap<PathPattern, Matchers>();

function matcher(glob: string, ignorecase: boolean): Ignore {
  // A leading `!` or `#` would be read as negation or a comment.
  const safe = /^[!#]/.test(glob) ? `\\${glob}` : glob;
  return ignore({ ignorecase }).add(safe);
}

function matchersOf(pattern: PathPattern): Matchers {
  let m = built.get(pattern);
  if (m === undefined) {
    const f = pattern.folderGlob;
    m = { exact: matcher(pattern.glob, false), folded: matcher(pattern.glob, true), folder: f === null ? null : { exact: matcher(f, false), folded: matcher(f, true) } };
    built.set(pattern, m);
  }
  return m;
}

/** Does the pattern match `absPath` (absolute, normalised)? `fold` compares case-insensitively. */
export function pathPatternMatches(pattern: PathPattern, absPath: string, bases: PathBases, fold: boolean): boolean {
  return relativePathMatches(pattern, relative(patternAnchorFolder(pattern, bases), absPath), fold);
}

const prefixes = new WeakMap<PathPattern, string>();

/**
 * The folders an anchored pattern names literally before its first wildcard
 * (`tmp/out` for `/tmp/out/**`, `src` for `src/*.ts`): whatever it matches is
 * that folder or under it. Empty when it names none, or when a folder's name
 * holds anything gitignore reads specially (wildcards, escapes, trailing spaces).
 */
function literalPrefix(pattern: PathPattern): string {
  let prefix = prefixes.get(pattern);
  if (prefix === undefined) {
    const glob = pattern.glob;
    const body = glob.startsWith('/') ? glob.slice(1) : glob;
    // A slash at the start or in the middle anchors a gitignore pattern to its base; without one it matches at any depth.
    const anchored = glob.startsWith('/') || body.replace(/\/$/, '').includes('/');
    const folders = body.split('/').slice(0, -1);
    const literal: string[] = [];
    for (const f of folders) {
      if (f === '' || /[*?[\]\\]|\s$/.test(f)) break;
      literal.push(f);
    }
    prefix = anchored ? literal.join('/') : '';
    prefixes.set(pattern, prefix);
  }
  return prefix;
}

/** Does the pattern match `rel`, a path relative to its anchor folder (as path.relative gives it)? */
export function relativePathMatches(pattern: PathPattern, rel: string, fold: boolean): boolean {
  if (rel === '..' || rel.startsWith('../') || isAbsolute(rel)) return false;
  if (pattern.glob === '') return true;
  if (rel === '') return false;
  // A path outside the folders the pattern names cannot match: answered without building its matchers (4 `ignore`
  // instances; ~5 ms of a fresh -p's first Read, against moat's own Read(//…/tool-results/**) rule).
  const prefix = literalPrefix(pattern);
  if (prefix !== '') {
    const [p, r] = fold ? [prefix.toLowerCase(), rel.toLowerCase()] : [prefix, rel];
    if (r !== p && !r.startsWith(`${p}/`)) return false;
  }
  const m = matchersOf(pattern);
  const main = fold ? m.folded : m.exact;
  const folder = m.folder ? (fold ? m.folder.folded : m.folder.exact) : null;
  try {
    return main.ignores(rel) || (folder?.ignores(rel) ?? false);
  } catch {
    // `ignore` refuses some names (e.g. with a trailing space); such a path matches nothing.
    return false;
  }
}
