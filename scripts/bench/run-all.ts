/**
 * `bun run bench`: every benchmark in this folder, one after another, each
 * printing its own numbers (ratios to a floor measured in the same run). A
 * benchmark that cannot run here (a missing tool, no sandbox) says why and the
 * rest go on; the exit code is non-zero when any failed.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const HERE = import.meta.dir;
// Helpers and fixtures, not benchmarks.
const NOT_BENCHMARKS = new Set(['run-all.ts', 'tui-fixtures.ts', 'tui-stream-profile.tsx', 'compiled-modules.ts', 'fresh-copy.ts']);
const only = process.argv.slice(2);
const scripts = readdirSync(HERE)
  .filter((f) => /\.tsx?$/.test(f) && !NOT_BENCHMARKS.has(f))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

let failed = 0;
for (const script of scripts) {
  console.log(`\n### ${script}`);
  const r = Bun.spawnSync(['bun', 'run', join(HERE, script)], { stdout: 'inherit', stderr: 'inherit' });
  if (r.exitCode !== 0) {
    failed++;
    console.log(`(${script} exited ${r.exitCode})`);
  }
}
process.exit(failed === 0 ? 0 : 1);
