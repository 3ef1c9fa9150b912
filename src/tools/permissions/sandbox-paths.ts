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
import { join } from 'node:path';
import { pathPatternMatches, type PathBases, type PathPattern } from './path-pattern.ts';
import type { Rule } from './rule.ts';

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

/** Existing paths under `start` that the pattern matches; a matching folder is taken whole. */
function walk(p: PathPattern, start: string, bases: PathBases): string[] {
  const out: string[] = [];
  let seen = 0;
  const visit = (dir: string, depth: number): void => {
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
      if (pathPatternMatches(p, full, bases, true)) {
        out.push(full);
        continue;
      }
      if (e.isDirectory() && !SKIP.has(e.name)) visit(full, depth + 1);
    }
  };
  visit(start, 0);
  return out;
}

/** The paths a path pattern stands for, for mounting. */
export function patternPaths(p: PathPattern, bases: PathBases): string[] {
  const anchor = anchorOf(p, bases);
  if (p.glob === '') return [anchor];
  const anchored = p.glob.startsWith('/');
  const body = anchored ? p.glob.slice(1) : p.glob;
  const folder = body.endsWith('/**') ? body.slice(0, -3) : body;
  // `/a/b` or `/a/b/**`: one path. A slashless name (`.env`) matches at any depth, as in gitignore: walk.
  if (!hasGlob(folder) && (anchored || folder.includes('/'))) return [join(anchor, folder)];
  // Walk from the longest literal prefix.
  const parts = folder.split('/');
  const literal: string[] = [];
  if (anchored || folder.includes('/')) {
    for (const part of parts) {
      if (hasGlob(part)) break;
      literal.push(part);
    }
  }
  return walk(p, join(anchor, ...literal), bases);
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
  for (const rule of rules.deny) {
    if (rule.type !== 'path') continue;
    for (const p of patternPaths(rule.pattern, bases)) (rule.ruleName === 'Read' ? denyRead : denyWrite).add(p);
  }
  const allowNetwork = new Set<string>();
  for (const rule of rules.allow) {
    // A WebFetch host is allowed over http and https; `*` (any host) is not carried over to processes.
    if (rule.type === 'domain' && rule.domain !== '*') allowNetwork.add(`*://${rule.domain}`);
  }
  return { denyRead: [...denyRead], denyWrite: [...denyWrite], allowNetwork: [...allowNetwork] };
}
