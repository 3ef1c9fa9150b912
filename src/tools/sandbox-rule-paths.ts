/**
 * `Read(…)` and `Edit(…)` deny rules as OS sandbox paths, resolved for each
 * command rather than once at start-up: a `.env` created since (by the user,
 * or by an earlier command) is denied too, and the paths a rule names that do
 * not exist yet are passed on, so the sandbox makes them uncreatable. Patterns
 * are anchored where the parser anchors them (the project root), and also at
 * the command's own repository top when that differs (a sub-agent's
 * worktree): the deny side may over-match, never under-match.
 */
import type { DenyPathRules } from '../contracts/index.ts';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isWithin } from '../util/index.ts';
import type { PathPattern } from './permissions/path-pattern.ts';
import { patternsPaths } from './permissions/sandbox-paths.ts';


/** The nearest folder at or above `cwd` holding `.git`, as the project root is found at start-up (config cannot be imported here). */
function repoTop(cwd: string): string | undefined {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * A slashless literal name (`.env`) matches at any depth, so no list of paths
 * covers where it may yet be created; these are the places a command is most
 * likely to create it: the project root and its own folder.
 */
function absentCandidates(p: PathPattern, base: string, cwd: string | undefined): string[] {
  if (p.anchor !== 'project' || p.glob === '' || /[*?[\]/\\]/.test(p.glob)) return [];
  return [join(base, p.glob), ...(cwd !== undefined && isWithin(base, cwd) ? [join(cwd, p.glob)] : [])];
}

/** The paths the deny rules stand for, for one command run in `cwd` (or for the status report, without one). */
export function denyRulePaths(rules: DenyPathRules | undefined, cwd?: string): { denyRead: string[]; denyWrite: string[] } {
  if (rules === undefined || (rules.read.length === 0 && rules.write.length === 0)) return { denyRead: [], denyWrite: [] };
  const top = cwd === undefined ? undefined : repoTop(cwd);
  // Only a repository inside the project (a worktree, a nested checkout): the walk stays within the project.
  const roots = [...new Set([rules.bases.projectRoot, ...(top !== undefined && isWithin(rules.bases.projectRoot, top) ? [top] : [])])];
  const denyRead = new Set<string>();
  const denyWrite = new Set<string>();
  for (const projectRoot of roots) {
    const bases = { ...rules.bases, projectRoot };
    // One walk of the project for all the rules' patterns, not one each (patternsPaths).
    const found = patternsPaths([...rules.read, ...rules.write], bases);
    found.slice(0, rules.read.length).forEach((paths) => paths.forEach((path) => denyRead.add(path)));
    rules.write.forEach((p, i) => {
      for (const path of [...(found[rules.read.length + i] ?? []), ...absentCandidates(p, projectRoot, cwd)]) denyWrite.add(path);
    });
  }
  return { denyRead: [...denyRead], denyWrite: [...denyWrite] };
}
