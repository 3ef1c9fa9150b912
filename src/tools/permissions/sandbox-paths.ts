/**
 * The permission rules as OS sandbox grants: `Read(…)` deny rules become read
 * denies, `Edit(…)`/`Write(…)` deny rules write denies, and
 * `WebFetch(domain:…)` allow rules hosts. bubblewrap mounts paths, not
 * patterns, so a pattern is resolved to the existing files and folders it
 * matches: a literal path as is, `dir/**` as `dir`, and any other glob by a
 * bounded walk of its anchor folder (the kernel then holds what the parser
 * only checked before).
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { patternAnchorFolder, type PathBases, type PathPattern } from './path-pattern.ts';
import { relativePathMatches } from './path-pattern-match.ts';
import type { Rule } from './rule.ts';
import { ruleNetworkHosts } from './rule-hosts.ts';

/** A walk never reads more entries than this (a pattern like `**\/.env` over a huge tree). */
const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 8;
/** Folders a walk does not enter: dependencies and VCS internals. */
const SKIP = new Set(['node_modules', '.git', '.hg', '.svn', 'target', 'dist', '.venv', 'venv', '__pycache__']);

function anchorOf(p: PathPattern, bases: PathBases): string {
  return p.anchor === 'absolute' ? '/' : p.anchor === 'home' ? bases.home : bases.projectRoot;
}

function hasGlob(s: string): boolean {
  return /[*?[\]]/.test(s);
}

/**
 * Existing paths under `start` that each pattern matches, in one walk for all of them: a command's deny rules
 * (`.env`, `.env.*`, `*.pem`, …) mostly walk the same folder, and reading it is most of the cost. A folder a
 * pattern matches is taken whole: that pattern looks no deeper into it, the others still do.
 */
function walk(patterns: readonly PathPattern[], start: string, bases: PathBases): string[][] {
  const out: string[][] = patterns.map(() => []);
  // Each pattern matches paths relative to its anchor folder: `start`'s own, once, then a name appended per level.
  const startRel = patterns.map((p) => relative(patternAnchorFolder(p, bases), start));
  let seen = 0;
  const visit = (dir: string, sub: string, depth: number, active: readonly number[]): void => {
    if (depth > MAX_DEPTH || seen > MAX_ENTRIES) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (++seen > MAX_ENTRIES) return;
      const full = join(dir, e.name);
      const name = sub === '' ? e.name : `${sub}/${e.name}`;
      const deeper = active.filter((i) => {
        const p = patterns[i];
        const base = startRel[i] ?? '';
        if (p === undefined || !relativePathMatches(p, base === '' ? name : `${base}/${name}`, true)) return true;
        out[i]?.push(full);
        return false;
      });
      if (deeper.length > 0 && e.isDirectory() && !SKIP.has(e.name)) visit(full, name, depth + 1, deeper);
    }
  };
  visit(start, '', 0, patterns.map((_, i) => i));
  return out;
}

/** Where a pattern's paths come from: the one path it names, or a walk from the longest literal prefix. */
function sourceOf(p: PathPattern, bases: PathBases): { path: string } | { walkFrom: string } {
  const anchor = anchorOf(p, bases);
  if (p.glob === '') return { path: anchor };
  const anchored = p.glob.startsWith('/');
  const body = anchored ? p.glob.slice(1) : p.glob;
  const folder = body.endsWith('/**') ? body.slice(0, -3) : body;
  // `/a/b` or `/a/b/**`: one path. A slashless name (`.env`) matches at any depth, as in gitignore: walk.
  if (!hasGlob(folder) && (anchored || folder.includes('/'))) return { path: join(anchor, folder) };
  const literal: string[] = [];
  if (anchored || folder.includes('/')) {
    for (const part of folder.split('/')) {
      if (hasGlob(part)) break;
      literal.push(part);
    }
  }
  return { walkFrom: join(anchor, ...literal) };
}

/** The paths each of `patterns` stands for, for mounting; patterns walking the same folder share one walk. */
export function patternsPaths(patterns: readonly PathPattern[], bases: PathBases): string[][] {
  const out: string[][] = patterns.map(() => []);
  const walks = new Map<string, number[]>();
  patterns.forEach((p, i) => {
    const source = sourceOf(p, bases);
    if ('path' in source) out[i]?.push(source.path);
    else walks.set(source.walkFrom, [...(walks.get(source.walkFrom) ?? []), i]);
  });
  for (const [start, indexes] of walks) {
    const found = walk(
      indexes.map((i) => patterns[i] as PathPattern),
      start,
      bases,
    );
    indexes.forEach((i, k) => out[i]?.push(...(found[k] ?? [])));
  }
  return out;
}

/** The paths a path pattern stands for, for mounting. */
export function patternPaths(p: PathPattern, bases: PathBases): string[] {
  return patternsPaths([p], bases)[0] ?? [];
}

export interface RuleSandboxGrants {
  denyRead: string[];
  denyWrite: string[];
  allowNetwork: string[];
}

/** What the permission rules add to the OS sandbox's grants. */
export function ruleSandboxGrants(rules: { allow: readonly Rule[]; deny: readonly Rule[] }, bases: PathBases): RuleSandboxGrants {
  const denyRead = new Set<string>();
  const denyWrite = new Set<string>();
  const pathRules = rules.deny.flatMap((rule) => (rule.type === 'path' ? [rule] : []));
  patternsPaths(
    pathRules.map((rule) => rule.pattern),
    bases,
  ).forEach((paths, i) => {
    for (const p of paths) (pathRules[i]?.ruleName === 'Read' ? denyRead : denyWrite).add(p);
  });
  return { denyRead: [...denyRead], denyWrite: [...denyWrite], allowNetwork: ruleNetworkHosts(rules.allow) };
}
