/**
 * Real temporary git repositories for sub-agent and worktree tests. Identity
 * and default branch are set in the repository itself, so the tests never
 * depend on (or touch) the machine's git configuration.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempDir } from '../../support/temp.ts';

export function sh(cwd: string, args: string[]): { code: number; out: string; err: string } {
  const r = Bun.spawnSync(['git', ...args], { cwd, stdout: 'pipe', stderr: 'pipe', env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } });
  return { code: r.exitCode, out: r.stdout.toString(), err: r.stderr.toString() };
}

export function gitOut(cwd: string, args: string[]): string {
  const r = sh(cwd, args);
  if (r.code !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.err}`);
  return r.out.trim();
}

export function write(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/** A repository with one commit holding `files`. */
export function makeRepo(files: Record<string, string>, parent?: string): string {
  const base = parent ?? tempDir('moat-repo-');
  const root = join(base, 'repo');
  mkdirSync(root, { recursive: true });
  gitOut(root, ['init', '--quiet', '--initial-branch=main']);
  gitOut(root, ['config', 'user.name', 'Test User']);
  gitOut(root, ['config', 'user.email', 'test@example.com']);
  gitOut(root, ['config', 'commit.gpgsign', 'false']);
  for (const [rel, text] of Object.entries(files)) write(root, rel, text);
  gitOut(root, ['add', '-A']);
  gitOut(root, ['commit', '--quiet', '-m', 'initial']);
  return root;
}

/** `git status --porcelain` (untracked included): empty means the working tree is exactly HEAD. */
export function status(root: string): string {
  return gitOut(root, ['status', '--porcelain', '--untracked-files=all']);
}

export function branches(root: string): string[] {
  return gitOut(root, ['branch', '--format=%(refname:short)']).split('\n').filter((b) => b !== '');
}
