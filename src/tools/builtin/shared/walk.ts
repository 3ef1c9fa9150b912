/** The file walk behind Glob, Grep and `@path` completion. */
import { lstatSync, readdirSync, statSync, type Dirent } from 'node:fs';
import { ancestorLayers, isIgnored, layerFor, readRules, type IgnoreLayer } from './gitignore.ts';

/**
 * The file walk behind glob and grep. Synchronous `readdirSync` with file
 * types (one syscall per folder, no stat per entry), pruning `.git` and
 * git-ignored folders before descending. Symlinks are reported but never
 * followed: following them could loop, or leave the allowed folders.
 */
export interface WalkEntry {
  /** Absolute path. */
  path: string;
  /** Posix path relative to the walk root. */
  rel: string;
  name: string;
  symlink: boolean;
}

export interface WalkOptions {
  /** Apply `.gitignore` rules (default true). */
  gitignore?: boolean;
  /** The folder the search is about, when the walk starts below it: its `.gitignore` rules apply even outside git. */
  floor?: string;
  /** Folder names never entered, wherever they are (`.git` never is). */
  skipFolders?: ReadonlySet<string>;
}

interface Frame {
  dir: string;
  rel: string;
  layers: IgnoreLayer[];
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function listDir(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    // Unreadable folders (EACCES, vanished mid-walk) are skipped, as rg does.
    return [];
  }
}

/** Modification time for newest-first listings; a dangling symlink has its own time, anything unreadable 0. */
export function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    try {
      return lstatSync(path).mtimeMs;
    } catch {
      return 0;
    }
  }
}

/** Files (and symlinks) under `root`, depth first, in directory order. */
export function* walkFiles(root: string, options: WalkOptions = {}): Generator<WalkEntry> {
  const useIgnore = options.gitignore ?? true;
  const stack: Frame[] = [{ dir: root, rel: '', layers: useIgnore ? ancestorLayers(root, options.floor) : [] }];
  for (let frame = stack.pop(); frame !== undefined; frame = stack.pop()) {
    // Sorted so results (and ties in later sorts) do not depend on the filesystem's order.
    const entries = listDir(frame.dir).sort(byName);
    let layers = frame.layers;
    if (useIgnore) {
      for (const e of entries) {
        if (e.name === '.gitignore' && !e.isDirectory()) {
          const rules = readRules(`${frame.dir}/.gitignore`);
          if (rules !== undefined) layers = [...layers, layerFor(rules, frame.rel)];
          break;
        }
      }
    }
    const subdirs: Frame[] = [];
    for (const e of entries) {
      const name = e.name;
      if (name === '.git') continue;
      const rel = frame.rel === '' ? name : `${frame.rel}/${name}`;
      const isDir = e.isDirectory();
      if (!isDir && !e.isFile() && !e.isSymbolicLink()) continue;
      if (isDir && options.skipFolders?.has(name) === true) continue;
      if (layers.length > 0 && isIgnored(layers, isDir ? `${rel}/` : rel)) continue;
      const path = frame.dir === '/' ? `/${name}` : `${frame.dir}/${name}`;
      if (isDir) subdirs.push({ dir: path, rel, layers });
      else yield { path, rel, name, symlink: e.isSymbolicLink() };
    }
    // Reverse so the stack pops folders in directory order.
    for (let i = subdirs.length - 1; i >= 0; i--) {
      const s = subdirs[i];
      if (s !== undefined) stack.push(s);
    }
  }
}
