/** .gitignore rules as layers per folder. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/**
 * `.gitignore` rules as a stack of layers, one per folder that has a
 * `.gitignore`. A path is judged by the deepest layer with an opinion, which is
 * how git lets a nested `.gitignore` re-include (`!pattern`) what a parent
 * ignored. Ignored folders are pruned by the walker, so (as in git) nothing
 * below them can be re-included.
 */
export interface IgnoreLayer {
  ig: Ignore;
  /** Prepended to a walk-relative path to make it relative to this layer's folder. */
  prefix: string;
  /** Characters to drop from the front of a walk-relative path first (layers below the walk root). */
  strip: number;
}

function toPosix(p: string): string {
  return sep === '/' ? p : p.split(sep).join('/');
}

/** A `.gitignore`'s text; undefined when it cannot be read. */
export function readRules(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A layer for a `.gitignore` found at `relDir` (posix, relative to the walk root; '' for the root itself). */
export function layerFor(rules: string, relDir: string): IgnoreLayer {
  // git matches case-sensitively on Linux; `ignore` defaults to insensitive.
  return { ig: ignore({ ignorecase: false }).add(rules), prefix: '', strip: relDir === '' ? 0 : relDir.length + 1 };
}

/**
 * Layers from the folders above `walkRoot`: up to and including the nearest
 * git work tree root (the folder holding `.git`), plus its `.git/info/exclude`.
 * Outside a git repository only folders from `floor` (the folder the user
 * asked to search) down count: a stray `.gitignore` in the home folder should
 * not hide a project's files.
 */
export function ancestorLayers(walkRoot: string, floor: string = walkRoot): IgnoreLayer[] {
  const above: string[] = [];
  let gitRoot: string | undefined = existsSync(`${walkRoot}/.git`) ? walkRoot : undefined;
  for (let dir = walkRoot; gitRoot === undefined; ) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
    above.push(dir);
    if (existsSync(`${dir}/.git`)) gitRoot = dir;
  }
  let dirs: string[];
  if (gitRoot !== undefined) dirs = above;
  else {
    const floorAt = above.indexOf(floor);
    dirs = floorAt === -1 ? [] : above.slice(0, floorAt + 1);
  }
  const layers: IgnoreLayer[] = [];
  const add = (rules: string | undefined, base: string): void => {
    if (rules === undefined) return;
    const rel = toPosix(relative(base, walkRoot));
    layers.push({ ig: ignore({ ignorecase: false }).add(rules), prefix: rel === '' ? '' : `${rel}/`, strip: 0 });
  };
  if (gitRoot !== undefined) add(readRules(`${gitRoot}/.git/info/exclude`), gitRoot);
  // Outermost first, so the "deepest layer wins" order of isIgnored holds.
  for (const d of dirs.reverse()) add(readRules(`${d}/.gitignore`), d);
  return layers;
}

/** Whether `rel` (posix, relative to the walk root; folders end with '/') is ignored. */
export function isIgnored(layers: readonly IgnoreLayer[], rel: string): boolean {
  for (let i = layers.length - 1; i >= 0; i--) {
    const layer = layers[i];
    if (layer === undefined) continue;
    const local = layer.strip === 0 ? layer.prefix + rel : rel.slice(layer.strip);
    const verdict = layer.ig.test(local);
    if (verdict.ignored) return true;
    if (verdict.unignored) return false;
  }
  return false;
}
