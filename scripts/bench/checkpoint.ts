/**
 * Benchmark: a checkpoint of an unchanged 10,000-file project, against the
 * floors measured in the same run on the same tree: a bare readdir walk, a
 * readdir + lstat walk (what any stat-based check must do), and
 * `git status --porcelain` (the tree as a git repository).
 *
 *   bun scripts/bench/checkpoint.ts [files=10000]
 *
 * Builds the tree in a temp folder (100 files a folder, a .gitignore'd
 * node_modules), takes the first checkpoint (every file hashed once), then
 * times RUNS interleaved rounds of: an unchanged checkpoint in the same
 * process (the change watch answers), a cold one (a fresh ProjectCheckpoints:
 * git reads the tree, as the first checkpoint of a new moat process does),
 * the same after the tree was read ahead (as a fresh moat does while the
 * model answers its first request: the checkpoint is then what is left),
 * and the floors. Then a 1-line change: its checkpoint's time and the bytes
 * it adds to the shadow repository, and the repository's size after a
 * repack. The target is 50 ms for the unchanged checkpoint.
 */
import { appendFileSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
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
  Bun.spawnSync(['git', 'init', '-q', '--bare', join(dir, 'floor.git')], { env: gitEnv });
  git(['add', '-A']);

  const store = openStore(join(dir, 'moat.db'));
  store.sessions.create({ id: 'bench', cwd: project, projectRoot: project, model: 'm', permissionMode: 'default' });
  const pc = new ProjectCheckpoints(store, project, { root: join(dir, 'checkpoints'), maxFileBytes: 10 * 1024 * 1024 });
  let t = performance.now();
  await pc.before('bench', 1);
  const first = performance.now() - t;
  // The floor for the first checkpoint: plain `git add -A` of the same tree into a fresh repository (one loose object a file).
  t = performance.now();
  Bun.spawnSync(['git', '-c', 'core.fsmonitor=false', 'add', '-A'], { cwd: project, env: { ...gitEnv, GIT_DIR: join(dir, 'floor.git'), GIT_WORK_TREE: project } });
  const addFloor = performance.now() - t;
  const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`load average: ${load()}`);
  console.log(`first checkpoint (${FILES} files hashed): ${first.toFixed(0)} ms   (floor: plain git add -A into a fresh repository: ${addFloor.toFixed(0)} ms)`);
  await pc.after('bench', 1);

  const walk = (dir: string, stat: boolean): number => {
    let n = 0;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== '.git' && e.name !== 'node_modules') n += walk(p, stat);
      } else {
        if (stat) lstatSync(p);
        n++;
      }
    }
    return n;
  };
  const time = async (fn: () => unknown) => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  const warm: number[] = [];
  const cold: number[] = [];
  const readAhead: number[] = [];
  const afterReadAhead: number[] = [];
  const readdirOnly: number[] = [];
  const lstatWalk: number[] = [];
  const status: number[] = [];
  let turn = 2;
  for (let i = 0; i < RUNS; i++) {
    warm.push(await time(() => pc.before('bench', turn++)));
    const fresh = new ProjectCheckpoints(store, project, { root: join(dir, 'checkpoints'), maxFileBytes: 10 * 1024 * 1024 });
    await fresh.open();
    cold.push(await time(() => fresh.before('bench', turn++)));
    // What a fresh moat does: the tree read while the model answers (the run's first request is out), then the checkpoint.
    const ahead = new ProjectCheckpoints(store, project, { root: join(dir, 'checkpoints'), maxFileBytes: 10 * 1024 * 1024 });
    await ahead.open();
    readAhead.push(await time(() => ahead.readAhead('bench', turn)));
    afterReadAhead.push(await time(() => ahead.before('bench', turn++)));
    readdirOnly.push(await time(() => walk(project, false)));
    lstatWalk.push(await time(() => walk(project, true)));
    status.push(await time(() => git(['status', '--porcelain'])));
  }
  const ms = (xs: number[]) => `${median(xs).toFixed(1)} ms`;
  console.log(`median of ${RUNS} interleaved runs, ${FILES} files:`);
  console.log(`  unchanged checkpoint, same process (change watch): ${ms(warm)}   (target 50 ms)`);
  console.log(`  unchanged checkpoint, fresh process state, no read ahead (git reads the tree): ${ms(cold)}`);
  console.log(`  unchanged checkpoint, fresh process state, tree read ahead: ${ms(afterReadAhead)}   (target 50 ms; the read ahead itself, done while the model answers: ${ms(readAhead)})`);
  console.log(`  floor: readdir walk, no stat: ${ms(readdirOnly)}`);
  console.log(`  floor: readdir + lstat walk: ${ms(lstatWalk)}`);
  console.log(`  floor: git status --porcelain: ${ms(status)}`);

  const kb = () => Number(Bun.spawnSync(['du', '-sk', join(dir, 'checkpoints')]).stdout.toString().split('\t')[0]);
  const beforeKb = kb();
  appendFileSync(join(project, 'src', 'd7', 'f700.ts'), 'export const changed = true;\n');
  const changed = await time(() => pc.before('bench', turn++));
  console.log(`1-line change: checkpoint ${changed.toFixed(1)} ms, shadow repository +${kb() - beforeKb} KB (${beforeKb} KB before)`);
  await pc.repack();
  console.log(`after repack: ${kb()} KB`);
  console.log(`load average at the end: ${load()}`);
  store.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
