/** Where skills and agent definitions are looked for. */
import { join } from 'node:path';
import type { DefinitionSource } from './types.ts';

/** Where to look; everything is a parameter so sub-agents in other worktrees and tests load their own. */
export interface DefinitionRoots {
  /** The project root (git root, else the working folder). */
  projectRoot: string;
  /** moat's config folder, `$XDG_CONFIG_HOME/moat`. */
  configDir: string;
  /** The home folder; when given, Claude Code's personal folders (`~/.claude/...`) are searched too. */
  home?: string;
  /** Only the user's or the project's folders (`--setting-sources`); absent: both. Bundled definitions always load. */
  include?: readonly ('user' | 'project' | 'local')[];
}

export interface SourceDir {
  dir: string;
  source: DefinitionSource;
}

/**
 * The folders holding `kind` ('skills' or 'agents'), lowest precedence first:
 * a later folder's definition replaces an earlier one of the same name. So a
 * project's beats the user's, which beats the bundled one; within one level
 * moat's own folder beats the compatibility folders.
 */
export function sourceDirs(kind: 'skills' | 'agents', roots: DefinitionRoots): SourceDir[] {
  const user: SourceDir[] = [];
  if (roots.home) {
    user.push({ dir: join(roots.home, '.claude', kind), source: 'user' });
  }
  user.push({ dir: join(roots.configDir, kind), source: 'user' });
  // `.agents/skills` is the Agent Skills convention; there is no `.agents/agents`.
  const project: SourceDir[] = kind === 'skills' ? [{ dir: join(roots.projectRoot, '.agents', kind), source: 'project' }] : [];
  project.push({ dir: join(roots.projectRoot, '.claude', kind), source: 'project' });
  project.push({ dir: join(roots.projectRoot, '.moat', kind), source: 'project' });
  const include = roots.include ?? ['user', 'project'];
  return [...(include.includes('user') ? user : []), ...(include.includes('project') ? project : [])];
}
