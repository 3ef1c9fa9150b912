/**
 * Instruction files users of other agents already keep: `~/.claude/CLAUDE.md`,
 * then from the repository root down to the working folder `AGENTS.md`,
 * `CLAUDE.md`, `.claude/CLAUDE.md` and `CLAUDE.local.md`, each followed by
 * the files it imports with `@path` (Claude Code's syntax).
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

export interface MemoryFile {
  path: string;
  text: string;
}

/**
 * Where an instruction file comes from, as Claude Code's `--setting-sources`
 * names it: `user` (`~/.claude/CLAUDE.md`), `project` (the repository's
 * shared files), `local` (`CLAUDE.local.md`). A program that names none gets none.
 */
export type InstructionSource = 'user' | 'project' | 'local';

const LOCAL_FILE = 'CLAUDE.local.md';
const FOLDER_FILES = ['AGENTS.md', 'CLAUDE.md', join('.claude', 'CLAUDE.md'), LOCAL_FILE];
const MEMORY_CAP = 40_000;
/** Claude Code's limit: an import of an import … five levels deep. */
const MAX_IMPORT_DEPTH = 5;

/** The folders from the repository root down to cwd (root first): more specific instructions come later and win. */
function foldersFromRootTo(root: string, cwd: string): string[] {
  const rel = relative(root, cwd);
  if (rel.startsWith('..')) return [cwd];
  const out = [root];
  let cur = root;
  for (const p of rel === '' ? [] : rel.split(sep)) {
    cur = join(cur, p);
    out.push(cur);
  }
  return out;
}

function realOrUndefined(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

function inside(path: string, roots: readonly string[]): boolean {
  return roots.some((r) => path === r || path.startsWith(r.endsWith(sep) ? r : r + sep));
}

/**
 * The `@path` imports of a Markdown text: a word starting with `@` at the
 * start of a line or after a space, outside fenced code blocks and inline
 * code (where `@decorators` and `npm i @scope/pkg` live).
 */
export function importsOf(text: string): string[] {
  const found: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    const prose = line.replace(/`[^`]*`/g, ' ');
    for (const m of prose.matchAll(/(?:^|\s)@((?:~\/|\.{1,2}\/|\/)?[\w.\-/]*[\w/])/g)) {
      const p = m[1];
      // A path names a file: it has a slash or an extension (`@alice` is a mention, not an import).
      if (p !== undefined && (p.includes('/') || /\.\w+$/.test(p))) found.push(p);
    }
  }
  return found;
}

function readCapped(path: string): string | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    return text.length > MEMORY_CAP ? `${text.slice(0, MEMORY_CAP)}\n… (truncated)` : text;
  } catch {
    // Unreadable: skipped rather than failing the run.
    return undefined;
  }
}

/**
 * Every instruction file in order, imports right after the file importing
 * them. An import must stay inside `roots` (after symlinks: a repository's
 * CLAUDE.md cannot pull in ~/.ssh); each file is read once, so cycles stop.
 */
export function memoryFiles(o: { cwd: string; gitRoot: string | undefined; home?: string; roots: readonly string[]; sources?: readonly InstructionSource[] }): MemoryFile[] {
  const from = new Set(o.sources ?? ['user', 'project', 'local']);
  const out: MemoryFile[] = [];
  const seen = new Set<string>();
  const userDir = o.home === undefined ? undefined : join(o.home, '.claude');
  const realRoots = [o.gitRoot ?? o.cwd, o.cwd, ...o.roots].map((r) => realOrUndefined(r) ?? r);
  const visit = (path: string, depth: number, allowed: readonly string[]): void => {
    const real = realOrUndefined(path);
    if (real === undefined || seen.has(real)) return;
    seen.add(real);
    const text = readCapped(path);
    if (text === undefined) return;
    out.push({ path, text });
    if (depth >= MAX_IMPORT_DEPTH) return;
    for (const imp of importsOf(text)) {
      const target = imp.startsWith('~/') && o.home !== undefined ? join(o.home, imp.slice(2)) : isAbsolute(imp) ? imp : resolve(dirname(path), imp);
      const realTarget = realOrUndefined(target);
      if (realTarget !== undefined && inside(realTarget, allowed)) visit(target, depth + 1, allowed);
    }
  };
  if (userDir !== undefined && from.has('user')) {
    const realUserDir = realOrUndefined(userDir);
    if (realUserDir !== undefined) visit(join(userDir, 'CLAUDE.md'), 0, [realUserDir, ...realRoots]);
  }
  for (const folder of foldersFromRootTo(o.gitRoot ?? o.cwd, o.cwd)) {
    for (const name of FOLDER_FILES) {
      if (!from.has(name === LOCAL_FILE ? 'local' : 'project')) continue;
      const path = join(folder, name);
      if (existsSync(path)) visit(path, 0, realRoots);
    }
  }
  return out;
}
