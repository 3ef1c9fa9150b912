/** The protected paths of a writable root: what no sandboxed command may write, and the file tools always ask about. */
import { expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { protectedIn } from '../../../src/sandbox/os/deny-list.ts';
import { tempDir } from '../../support/temp.ts';

test("outside a repository: no .git paths; in one: config, hooks, modules, and git's pointer files where they exist", () => {
  const root = tempDir('moat-protected-');
  const rel = (paths: string[]) => paths.map((p) => p.slice(root.length + 1));
  const always = ['.claude/settings.json', '.claude/settings.local.json', '.claude/commands', '.claude/agents', '.claude/skills', '.moat', '.mcp.json', '.agents'];
  expect(rel(protectedIn(root))).toEqual(always);
  mkdirSync(join(root, '.git'));
  expect(rel(protectedIn(root))).toEqual(['.git/hooks', '.git/config', '.git/modules', ...always]);
  // A linked worktree's metadata and a commondir: protected where present (a placeholder folder would stop git).
  mkdirSync(join(root, '.git', 'worktrees', 'side'), { recursive: true });
  writeFileSync(join(root, '.git', 'worktrees', 'side', 'commondir'), '../..\n');
  writeFileSync(join(root, '.git', 'worktrees', 'side', 'gitdir'), '/elsewhere/.git\n');
  writeFileSync(join(root, '.git', 'commondir'), '.\n');
  expect(rel(protectedIn(root))).toEqual([
    '.git/hooks',
    '.git/config',
    '.git/commondir',
    '.git/modules',
    '.git/worktrees/side/commondir',
    '.git/worktrees/side/gitdir',
    ...always,
  ]);
});
