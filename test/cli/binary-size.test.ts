/**
 * The one budget the unit tests keep on the compiled binary: dist/moat weighs
 * at most 1.25x a hello-world compiled by the same Bun (the least any Bun
 * executable weighs). What the binary embeds, and what `-p` loads before its
 * first request, are printed by scripts/bench/size.ts and
 * first-request-modules.ts, not tested: they read the binary's layout.
 */
import { expect, test } from 'bun:test';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MOAT_BIN } from '../support/run-moat.ts';
import { tempDir } from '../support/temp.ts';

// 1.2476x (136.25 MB against 109.2) once the bundled tools' cache entries went into one zstd archive (scripts/embed-tools.ts).
const MAX_RATIO = 1.25;

test(`dist/moat is at most ${MAX_RATIO}x a compiled Bun hello-world`, () => {
  if (!existsSync(MOAT_BIN)) throw new Error('dist/moat is missing: run `bun run build` first');
  const dir = tempDir('moat-size-');
  writeFileSync(join(dir, 'hello.ts'), "console.log('hello');\n");
  const built = Bun.spawnSync(['bun', 'build', '--compile', join(dir, 'hello.ts'), '--outfile', join(dir, 'hello')], { stdout: 'ignore', stderr: 'pipe' });
  if (built.exitCode !== 0) throw new Error(`bun build --compile failed: ${built.stderr.toString()}`);
  const ratio = statSync(MOAT_BIN).size / statSync(join(dir, 'hello')).size;
  expect(ratio).toBeGreaterThan(1);
  expect(ratio).toBeLessThanOrEqual(MAX_RATIO);
});
