/**
 * The build's stand-in for zod (scripts/lazy-zod.ts): a module of src/ that
 * imports zod gets it without loading it, zod loads on the first member read
 * (set up jitless, as src/cli/zod-setup.ts does), schemas behave as zod's
 * own, and a member the build did not list fails loudly instead of being
 * undefined.
 */
import { expect, test } from 'bun:test';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lazyZodPlugin } from '../../scripts/lazy-zod.ts';
import { tempDir } from '../support/temp.ts';

test('src/ gets zod on first use, with the same schemas; unlisted members fail loudly', async () => {
  const root = tempDir('moat-lazy-zod-');
  mkdirSync(join(root, 'src'));
  writeFileSync(
    join(root, 'src', 'entry.ts'),
    [
      "import { z } from 'zod';",
      'const schema = z.strictObject({ name: z.string().min(1), n: z.number().int().optional() });',
      'const good = schema.safeParse({ name: "a", n: 2 });',
      'const bad = schema.safeParse({ name: "", extra: 1 });',
      'let unlisted = "";',
      'try { (z as unknown as Record<string, unknown>)["ZodMiniString"]; } catch (e) { unlisted = (e as Error).message; }',
      'console.log(JSON.stringify({ good: good.success && good.data, bad: bad.success ? [] : bad.error.issues.map((i) => i.code), isType: schema instanceof z.ZodType, jitless: z.config().jitless, unlisted }));',
    ].join('\n'),
  );
  const out = join(root, 'out');
  const built = await Bun.build({ entrypoints: [join(root, 'src', 'entry.ts')], outdir: out, target: 'bun', splitting: true, plugins: [lazyZodPlugin] });
  expect(built.success).toBe(true);
  // zod itself is in a chunk the entry requires, not one it imports.
  const entry = readFileSync(join(out, 'entry.js'), 'utf8');
  const statics = new Bun.Transpiler({ loader: 'js' }).scanImports(entry).filter((i) => i.kind === 'import-statement').map((i) => i.path);
  const zodChunk = readdirSync(out).find((f) => readFileSync(join(out, f), 'utf8').includes('$constructor("$ZodString"'));
  expect(zodChunk).toBeDefined();
  expect(statics.some((p) => p.endsWith(zodChunk as string))).toBe(false);
  const run = Bun.spawnSync(['bun', join(out, 'entry.js')], { stdout: 'pipe', stderr: 'pipe' });
  expect(run.stderr.toString()).toBe('');
  expect(JSON.parse(run.stdout.toString())).toEqual({
    good: { name: 'a', n: 2 },
    bad: ['too_small', 'unrecognized_keys'],
    isType: true,
    jitless: true,
    unlisted: 'zod member ZodMiniString is not in this build (scripts/lazy-zod.ts lists the members src/ names)',
  });
});
