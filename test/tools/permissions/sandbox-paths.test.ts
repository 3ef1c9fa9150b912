// Deny rules as sandbox paths: several patterns resolved in one walk find what each finds alone.
import { describe, expect, test } from 'bun:test';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseRule } from '../../../src/tools/permissions/index.ts';
import type { PathBases, PathPattern } from '../../../src/tools/permissions/path-pattern.ts';
import { pathPatternMatches } from '../../../src/tools/permissions/path-pattern-match.ts';
import { patternPaths, patternsPaths } from '../../../src/tools/permissions/sandbox-paths.ts';
import { tempDir } from '../../support/temp.ts';

function patternOf(rule: string): PathPattern {
  const r = parseRule(rule);
  if (r.type !== 'path') throw new Error(`not a path rule: ${rule}`);
  return r.pattern;
}

function tree(root: string, files: readonly string[]): void {
  for (const f of files) {
    mkdirSync(join(root, f, '..'), { recursive: true });
    if (!f.endsWith('/')) writeFileSync(join(root, f), '');
  }
}

const sorted = (xs: readonly string[]) => [...xs].sort();

/**
 * The reference, by brute force over every entry (dependencies left out): an entry the pattern matches (through
 * the absolute-path matcher) unless a folder above it, below the root, already matched and was taken whole.
 */
function bruteForce(p: PathPattern, root: string, bases: PathBases): string[] {
  const all: string[] = [];
  const list = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      all.push(join(dir, e.name));
      if (e.isDirectory() && e.name !== 'node_modules') list(join(dir, e.name));
    }
  };
  list(root);
  const matches = (path: string) => pathPatternMatches(p, path, bases, true);
  const coveredAbove = (path: string): boolean => {
    for (let d = dirname(path); d.length > root.length; d = dirname(d)) if (matches(d)) return true;
    return false;
  };
  return all.filter((path) => matches(path) && !coveredAbove(path));
}

describe('patternsPaths', () => {
  test('finds each pattern at any depth, takes a matched folder whole, skips dependencies', () => {
    const root = tempDir('deny-paths-');
    tree(root, ['.env', 'a/.env', 'a/b/.env.local', 'secrets/key.pem', 'secrets/inner/.env', 'node_modules/x/.env', 'src/main.ts', 'certs/x.pem']);
    const bases = { projectRoot: root, home: join(root, 'home') };
    const [env, envStar, pem, secrets, one] = patternsPaths(
      ['Read(.env)', 'Read(.env.*)', 'Read(*.pem)', 'Edit(secrets)', 'Read(/src/main.ts)'].map(patternOf),
      bases,
    );
    expect(sorted(env ?? [])).toEqual([join(root, '.env'), join(root, 'a/.env'), join(root, 'secrets/inner/.env')]);
    expect(envStar).toEqual([join(root, 'a/b/.env.local')]);
    expect(sorted(pem ?? [])).toEqual([join(root, 'certs/x.pem'), join(root, 'secrets/key.pem')]);
    // The folder itself, not what is inside it.
    expect(secrets).toEqual([join(root, 'secrets')]);
    expect(one).toEqual([join(root, 'src/main.ts')]);
  });

  test('a walk from below the anchor folder matches paths relative to the anchor', () => {
    const root = tempDir('deny-paths-');
    tree(root, ['src/a.ts', 'src/deep/b.ts', 'src/c.js', 'a.ts', 'home/.ssh/id_ed25519', 'home/.ssh/known_hosts', 'home/x/id_rsa']);
    const bases = { projectRoot: root, home: join(root, 'home') };
    const [srcTs, keys] = patternsPaths([patternOf('Read(src/*.ts)'), patternOf('Read(~/.ssh/id_*)')], bases);
    expect(srcTs).toEqual([join(root, 'src/a.ts')]);
    expect(keys).toEqual([join(root, 'home/.ssh/id_ed25519')]);
  });

  test('on random trees, one walk for all patterns finds what one walk per pattern finds', () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const names = ['.env', '.env.local', 'a', 'b', 'key.pem', 'id_rsa', 'secrets', 'x.ts', 'node_modules', 'build', 'c'];
    const rules = ['Read(.env)', 'Read(.env.*)', 'Read(*.pem)', 'Edit(id_rsa)', 'Read(secrets)', 'Edit(**/build/**)', 'Read(a/*.ts)', 'Read(/b/**)', 'Edit(c)', 'Read(*)'];
    for (let round = 0; round < 25; round++) {
      const root = tempDir('deny-paths-');
      const files: string[] = [];
      for (let i = 0; i < 40; i++) {
        const depth = 1 + rand(4);
        const parts = Array.from({ length: depth }, () => names[rand(names.length)] ?? 'z');
        // A name is either a file or a folder in one tree: the first use decides.
        if (!files.some((f) => f.startsWith(`${parts.join('/')}/`) || parts.some((_, k) => f === parts.slice(0, k + 1).join('/')))) files.push(parts.join('/'));
      }
      tree(root, files);
      const chosen = rules.filter(() => rand(2) === 0).map(patternOf);
      const bases = { projectRoot: root, home: join(root, 'home') };
      const together = patternsPaths(chosen, bases).map(sorted);
      const alone = chosen.map((p) => sorted(patternPaths(p, bases)));
      expect(together).toEqual(alone);
      // Every pattern but the literal `/b/**` is walked: against the brute-force reference.
      chosen.forEach((p, i) => {
        if (p.glob !== '/b/**') expect(together[i]).toEqual(sorted(bruteForce(p, root, bases)));
      });
    }
  });
});
