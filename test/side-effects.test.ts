/**
 * package.json's `sideEffects` lists the modules of moat whose import has an
 * effect of its own: the bundler keeps any other module only where one of its
 * bindings is used (unused re-exports of a folder's index.ts are left out of
 * the chunks). A module imported for its effect alone (`import './x.ts'`) and
 * not listed would be dropped from the executable without a word, so every
 * such import must name a listed module, and every listed file must exist.
 */
import { expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dir, '..');
const listed = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { sideEffects: string[] }).sideEffects;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return walk(p);
    return /\.(ts|tsx)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Whether `file` (relative to the root, `./`-prefixed) matches an entry: a path, or a folder's `/**`. */
const isListed = (file: string) => listed.some((entry) => (entry.endsWith('/**') ? file.startsWith(entry.slice(0, -2)) : file === entry));

test('every module imported for its effect alone is listed in sideEffects', () => {
  const bare: string[] = [];
  for (const file of walk(join(ROOT, 'src'))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^\s*import\s*(['"])([^'"]+)\1\s*(?:with\s*\{[^}]*\})?\s*;?\s*$/gm)) {
      const spec = m[2]!;
      if (!spec.startsWith('.')) continue;
      bare.push(`./${relative(ROOT, resolve(dirname(file), spec))}`);
    }
  }
  expect(bare.length).toBeGreaterThan(0);
  expect(bare.filter((f) => !isListed(f))).toEqual([]);
});

test('the entries and every file listed exist', () => {
  for (const entry of listed) expect([entry, existsSync(join(ROOT, entry.endsWith('/**') ? entry.slice(0, -3) : entry))]).toEqual([entry, true]);
  // The executable's entries run for their effect.
  for (const entry of ['./src/main.ts', './src/sandbox/child-entry.ts']) expect(isListed(entry)).toBe(true);
});
