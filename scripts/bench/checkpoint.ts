/**
 * Benchmark: a checkpoint of an unchanged 10,000-file project, against the
 * floor of `git status --porcelain` on the same tree (as a git repository).
 *
 *   bun scripts/bench/checkpoint.ts [files=10000]
 *
 * Builds the tree in a temp folder (100 files a folder, a .gitignore'd
 * node_modules), takes the first checkpoint (every file hashed once), then
 * times RUNS checkpoints with nothing changed and RUNS `git status` runs,
 * interleaved, and prints medians and their ratio. The target is 50 ms.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectCheckpoints } from '../../src/checkpoints/index.ts';
import { openStore } from '../../src/store/index.ts';

const FILES = Number(process.argv[2] ?? 10_000);
const RUNS = 15;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'moat-bench-checkpoint-')));
try {
  const project = join(dir, 'project');
  for (let i = 0; i < FILES; i++) {
    const sub = join(project, 'src', `d${Math.floor(i / 100)}`);
    if (i % 100 === 0) mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `f${i}.ts`), `export const value${i} = ${i};\n`.repeat(20));
  }
  mkdirSync(join(project, 'node_modules', 'dep'), { recursive: true });
  writeFileSync(join(project, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
  writeFileSync(join(project, '.gitignore'), 'node_modules/\n');
  const gitEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  const git = (args: string[]) => Bun.spawnSync(['git', '-c', 'core.fsmonitor=false', ...args], { cwd: project, env: gitEnv });
  git(['init', '-q']);
  git(['add', '-A']);

  const store = openStore(join(dir, 'moat.db'));
  store.sessions.create({ id: 'bench', cwd: project, projectRoot: project, model: 'm', permissionMode: 'default' });
  const pc = new ProjectCheckpoints(store, project, { root: join(dir, 'checkpoints'), maxFileBytes: 10 * 1024 * 1024 });
  let t = performance.now();
  await pc.before('bench', 1);
  console.log(`first checkpoint (${FILES} files hashed): ${(performance.now() - t).toFixed(0)} ms`);
  await pc.after('bench', 1);

  const checkpoint: number[] = [];
  const status: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    t = performance.now();
    await pc.before('bench', i + 2);
    checkpoint.push(performance.now() - t);
    t = performance.now();
    git(['status', '--porcelain']);
    status.push(performance.now() - t);
  }
  const c = median(checkpoint);
  const s = median(status);
  console.log(`unchanged checkpoint: median ${c.toFixed(1)} ms over ${RUNS} runs (target 50 ms)`);
  console.log(`git status --porcelain (floor): median ${s.toFixed(1)} ms`);
  console.log(`ratio: ${(c / s).toFixed(2)}x the floor`);
  const objects = Bun.spawnSync(['du', '-sk', join(dir, 'checkpoints')]).stdout.toString().split('\t')[0];
  console.log(`shadow repository after ${RUNS + 1} checkpoints: ${objects} KB`);
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
