/** File tools and the protected paths: what the OS sandbox never lets a command write always asks, and -p is told why. */
import { describe, expect, test } from 'bun:test';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PERMISSION_MODES } from '../../../src/contracts/index.ts';
import { denialHint } from '../../../src/tools/permissions/index.ts';
import { decideLoaded } from '../../../src/tools/permissions/decide.ts';
import { protectedEntry } from '../../../src/tools/permissions/protected-paths.ts';
import { PROTECTED_IN_ROOT } from '../../../src/sandbox/index.ts';
import { tempDir } from '../../support/temp.ts';
import { edit, policy, PROJECT, read } from './helpers.ts';

const PROTECTED = [
  '.git/config',
  '.git/hooks/pre-commit',
  '.git/commondir',
  '.git/modules/sub/config',
  '.git/worktrees/side/gitdir',
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.claude/commands/deploy.md',
  '.claude/skills/x/SKILL.md',
  '.moat/config.toml',
  '.mcp.json',
  '.agents/skills/x/SKILL.md',
];

describe('protected paths', () => {
  test('the list is the sandbox’s own, .agents/ included', () => {
    expect(PROTECTED_IN_ROOT).toContain('.agents');
    for (const rel of PROTECTED) expect([rel, protectedEntry(join(PROJECT, rel), [PROJECT]) !== undefined]).toEqual([rel, true]);
    for (const rel of ['.git/HEAD', '.gitignore', 'src/.git-config', '.claude/notes.md', 'docs/.mcp.json.example', '.moatrc']) {
      expect([rel, protectedEntry(join(PROJECT, rel), [PROJECT])]).toEqual([rel, undefined]);
    }
  });

  test('a write asks in every mode but bypassPermissions (plan denies, dontAsk denies); a read is free; no rule is suggested', () => {
    const got = Object.fromEntries(PERMISSION_MODES.map((mode) => [mode, decideLoaded(edit(`${PROJECT}/.git/config`), policy({ mode, allow: ['Edit', 'Write'] })).kind]));
    expect(got).toEqual({ default: 'ask', acceptEdits: 'ask', plan: 'deny', bypassPermissions: 'allow', dontAsk: 'deny' });
    expect(decideLoaded(read(`${PROJECT}/.git/config`), policy({ mode: 'default' })).kind).toBe('allow');
    const asked = decideLoaded(edit(`${PROJECT}/.mcp.json`), policy({ mode: 'acceptEdits' }));
    expect(asked).toMatchObject({ kind: 'ask', cause: 'protected_path', rules: [], acceptEditsWouldAllow: false });
  });

  test('-p is told why and what to do instead', () => {
    const call = edit(`${PROJECT}/.claude/settings.local.json`);
    const decision = decideLoaded(call, policy({ mode: 'acceptEdits' }));
    if (decision.kind !== 'ask') throw new Error('expected ask');
    expect(denialHint(call, decision)).toBe(
      `Permission denied: Edit would write ${PROJECT}/.claude/settings.local.json, which moat protects (git's config and hooks, the project's settings, commands, agents and skills, .moat/, .mcp.json, .agents/: writing them changes what runs or is allowed next). No rule or mode allows that; moat -p cannot ask. Tell the user what to change in the file and let them make the change, or run moat interactively, where they can approve this one write.`,
    );
  });

  test('a symlink in the folder that leads to a protected file is that file', () => {
    const root = tempDir('moat-protected-');
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
    symlinkSync(join(root, '.git', 'hooks'), join(root, 'tools'));
    writeFileSync(join(root, '.git', 'config'), '[core]\n');
    symlinkSync(join(root, '.git', 'config'), join(root, 'settings.ini'));
    expect(protectedEntry(join(root, 'tools', 'pre-commit'), [root])).toBe('.git/hooks');
    expect(protectedEntry(join(root, 'settings.ini'), [root])).toBe('.git/config');
    expect(decideLoaded(edit(join(root, 'tools', 'pre-commit')), policy({ mode: 'acceptEdits', roots: [root] })).kind).toBe('ask');
  });
});
