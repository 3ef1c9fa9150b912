import { describe, expect, test } from 'bun:test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expandHome, findProjectRoot, moatPaths, projectConfigFile } from '../../src/config/index.ts';
import { defaultDbPath } from '../../src/store/index.ts';
import { useTmp, write } from './tmp.ts';

const tmp = useTmp();

describe('moatPaths', () => {
  test('defaults under HOME', () => {
    expect(moatPaths({ HOME: '/home/u' })).toEqual({
      configDir: '/home/u/.config/moat',
      dataDir: '/home/u/.local/share/moat',
      cacheDir: '/home/u/.cache/moat',
      userConfigFile: '/home/u/.config/moat/config.toml',
      dbFile: '/home/u/.local/share/moat/moat.db',
      toolResultsDir: '/home/u/.local/share/moat/tool-results',
    });
  });

  test('honours XDG variables and ignores relative ones', () => {
    const env = { HOME: '/home/u', XDG_CONFIG_HOME: '/c', XDG_DATA_HOME: '/d', XDG_CACHE_HOME: 'relative/cache' };
    expect(moatPaths(env)).toEqual({
      configDir: '/c/moat',
      dataDir: '/d/moat',
      cacheDir: '/home/u/.cache/moat',
      userConfigFile: '/c/moat/config.toml',
      dbFile: '/d/moat/moat.db',
      toolResultsDir: '/d/moat/tool-results',
    });
    // The store computes the same database path on its own.
    expect(defaultDbPath(env)).toBe(moatPaths(env).dbFile);
  });

  test('expandHome expands ~ and ~/ only', () => {
    const env = { HOME: '/home/u' };
    expect([expandHome('~', env), expandHome('~/src', env), expandHome('~bob/x', env), expandHome('a/~', env)]).toEqual([
      '/home/u',
      '/home/u/src',
      '~bob/x',
      'a/~',
    ]);
  });
});

describe('findProjectRoot', () => {
  test('walks up to the folder holding .git (a folder)', () => {
    const root = tmp();
    mkdirSync(join(root, '.git'));
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    expect(findProjectRoot(join(root, 'a', 'b'))).toBe(root);
    expect(findProjectRoot(root)).toBe(root);
  });

  test('accepts a .git file (worktrees) and stops at the nearest one', () => {
    const outer = tmp();
    mkdirSync(join(outer, '.git'));
    write(join(outer, 'wt', '.git'), 'gitdir: /somewhere/.git/worktrees/wt\n');
    mkdirSync(join(outer, 'wt', 'src'));
    expect(findProjectRoot(join(outer, 'wt', 'src'))).toBe(join(outer, 'wt'));
  });

  test('without a repository the project root is cwd', () => {
    const dir = tmp();
    mkdirSync(join(dir, 'x'));
    expect(findProjectRoot(join(dir, 'x'))).toBe(join(dir, 'x'));
    expect(projectConfigFile('/p')).toBe('/p/.moat/config.toml');
  });
});
