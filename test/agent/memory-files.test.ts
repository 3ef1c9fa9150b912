// Instruction files: which are read, in what order, and what `@path` imports may pull in.
import { afterEach, describe, expect, test } from 'bun:test';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { importsOf, memoryFiles } from '../../src/agent/memory-files.ts';
import { tempDir } from '../support/temp.ts';

const made: string[] = [];
afterEach(() => {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

function world() {
  const top = tempDir('moat-memory-');
  made.push(top);
  const home = join(top, 'home');
  const repo = join(top, 'repo');
  const put = (path: string, text: string) => {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  };
  mkdirSync(join(repo, 'pkg'), { recursive: true });
  return { top, home, repo, put };
}

describe('importsOf', () => {
  test('words starting with @ that name files, outside code', () => {
    const text = [
      'See @docs/style.md and @./notes.txt, also @~/shared/rules.md.',
      'Ping @alice about it; mail bob@example.com.',
      'Run `npm i @scope/pkg` first.',
      '```ts',
      '@decorator/thing()',
      '```',
      '@../up.md',
    ].join('\n');
    expect(importsOf(text)).toEqual(['docs/style.md', './notes.txt', '~/shared/rules.md', '../up.md']);
  });
});

describe('memoryFiles', () => {
  test('the user file first, then root to cwd: AGENTS.md, CLAUDE.md, .claude/CLAUDE.md, CLAUDE.local.md', () => {
    const w = world();
    w.put(join(w.home, '.claude', 'CLAUDE.md'), 'user');
    w.put(join(w.repo, 'CLAUDE.md'), 'root claude');
    w.put(join(w.repo, 'AGENTS.md'), 'root agents');
    w.put(join(w.repo, '.claude', 'CLAUDE.md'), 'root dot-claude');
    w.put(join(w.repo, 'CLAUDE.local.md'), 'root local');
    w.put(join(w.repo, 'pkg', 'CLAUDE.md'), 'pkg');
    const texts = memoryFiles({ cwd: join(w.repo, 'pkg'), gitRoot: w.repo, home: w.home, roots: [] }).map((m) => m.text);
    expect(texts).toEqual(['user', 'root agents', 'root claude', 'root dot-claude', 'root local', 'pkg']);
    // --setting-sources (the SDK's settingSources): each source's files only; none with [].
    const from = (sources: ('user' | 'project' | 'local')[]) => memoryFiles({ cwd: join(w.repo, 'pkg'), gitRoot: w.repo, home: w.home, roots: [], sources }).map((m) => m.text);
    expect(from([])).toEqual([]);
    expect(from(['user'])).toEqual(['user']);
    expect(from(['project'])).toEqual(['root agents', 'root claude', 'root dot-claude', 'pkg']);
    expect(from(['local'])).toEqual(['root local']);
  });

  test('imports follow their file, relative to it, five levels deep at most; a cycle stops', () => {
    const w = world();
    w.put(join(w.repo, 'CLAUDE.md'), 'root @docs/a.md');
    w.put(join(w.repo, 'docs', 'a.md'), 'a @b.md');
    w.put(join(w.repo, 'docs', 'b.md'), 'b @c.md @a.md');
    w.put(join(w.repo, 'docs', 'c.md'), 'c @d.md');
    w.put(join(w.repo, 'docs', 'd.md'), 'd @e.md');
    w.put(join(w.repo, 'docs', 'e.md'), 'e @f.md');
    w.put(join(w.repo, 'docs', 'f.md'), 'f: too deep');
    w.put(join(w.repo, 'AGENTS.md'), 'agents @docs/a.md');
    const texts = memoryFiles({ cwd: w.repo, gitRoot: w.repo, roots: [] }).map((m) => m.text.split(' ')[0]);
    // AGENTS.md comes first and pulls in the chain; CLAUDE.md's import of a.md is not repeated.
    expect(texts).toEqual(['agents', 'a', 'b', 'c', 'd', 'e', 'root']);
  });

  test('a repository cannot import what lies outside the allowed folders, by path or through a symlink', () => {
    const w = world();
    w.put(join(w.home, '.ssh', 'id_rsa'), 'PRIVATE KEY');
    w.put(join(w.top, 'extra', 'notes.md'), 'extra notes');
    symlinkSync(join(w.home, '.ssh', 'id_rsa'), join(w.repo, 'key.md'));
    w.put(join(w.repo, 'CLAUDE.md'), `@~/.ssh/id_rsa @../home/.ssh/id_rsa @${join(w.home, '.ssh', 'id_rsa')} @key.md @../extra/notes.md`);
    const files = memoryFiles({ cwd: w.repo, gitRoot: w.repo, home: w.home, roots: [join(w.top, 'extra')] });
    expect(files.map((f) => f.text)).toEqual([files[0]!.text, 'extra notes']);
    expect(JSON.stringify(files)).not.toContain('PRIVATE KEY');
  });

  test("the user's own file may import from ~/.claude", () => {
    const w = world();
    w.put(join(w.home, '.claude', 'CLAUDE.md'), '@rules/go.md');
    w.put(join(w.home, '.claude', 'rules', 'go.md'), 'go rules');
    expect(memoryFiles({ cwd: w.repo, gitRoot: w.repo, home: w.home, roots: [] }).map((m) => m.text)).toEqual(['@rules/go.md', 'go rules']);
  });
});
