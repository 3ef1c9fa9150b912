/**
 * Benchmark: our grep tool against ripgrep on a generated 20,000-file tree.
 *
 *   bun scripts/bench/grep.ts [files=20000]
 *
 * Builds the tree in a temp folder (with a .gitignore'd folder, to exercise
 * the ignore rules), runs each query a few times with each tool, checks both
 * found the same files, and prints median times. Needs `rg` on PATH
 * (Debian: apt-get install -y ripgrep).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grepTool } from '../../src/tools/builtin/index.ts';
import type { TodoItem, ToolContext } from '../../src/tools/index.ts';

const FILES = Number(process.argv[2] ?? 20_000);
const PER_DIR = 100;
const RUNS = 5;

/** Deterministic PRNG (mulberry32), so every run builds the same tree. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['const', 'let', 'value', 'result', 'items', 'user', 'config', 'return', 'await', 'handler', 'index', 'map', 'filter', 'error', 'data', 'options', 'request', 'response', 'state', 'update'];

function sourceFile(rand: () => number, n: number): string {
  const lines: string[] = [`// file ${n}`, `import { helper${n % 97} } from './helper-${n % 97}';`, ''];
  const count = 40 + Math.floor(rand() * 80);
  for (let i = 0; i < count; i++) {
    const w = () => WORDS[Math.floor(rand() * WORDS.length)] as string;
    lines.push(`  ${w()} ${w()}${i} = ${w()}(${w()}, ${Math.floor(rand() * 10000)});`);
    if (rand() < 0.002) lines.push(`export function handleUserRequest${i}(req) { return req; }`);
    if (rand() < 0.001) lines.push(`  // call 555-${String(1000 + Math.floor(rand() * 9000))} for support`);
  }
  return `${lines.join('\n')}\n`;
}

function buildTree(root: string): void {
  const rand = rng(42);
  writeFileSync(join(root, '.gitignore'), 'generated/\n*.min.js\n');
  for (let i = 0; i < FILES; i++) {
    // One folder in fifty is ignored: the walker must prune it, as rg does.
    const folder = Math.floor(i / PER_DIR);
    const dir = join(root, folder % 50 === 7 ? 'generated' : 'src', `pkg${folder}`);
    if (i % PER_DIR === 0) mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `mod${i}.ts`), sourceFile(rand, i));
  }
}

function context(cwd: string): ToolContext {
  let todos: TodoItem[] = [];
  return {
    cwd,
    roots: [cwd],
    approvedPaths: [],
    signal: new AbortController().signal,
    sessionId: 'bench',
    toolUseId: 'bench',
    files: { markRead: () => {}, wasRead: () => false },
    todos: { get: () => todos, set: (t) => void (todos = t) },
    bashTimeoutMs: 120_000,
    onUpdate: () => {},
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

async function ours(ctx: ToolContext, pattern: string, ignoreCase: boolean): Promise<{ ms: number; files: number }> {
  const t = performance.now();
  const result = await grepTool.execute({ pattern, '-i': ignoreCase, head_limit: 1_000_000 }, ctx);
  const ms = performance.now() - t;
  const text = typeof result.content === 'string' ? result.content : '';
  const m = /^Found (\d+) files?/.exec(text);
  return { ms, files: m === null ? 0 : Number(m[1]) };
}

function ripgrep(root: string, pattern: string, ignoreCase: boolean): { ms: number; files: number } {
  const args = ['--files-with-matches', '--no-require-git', '--no-messages', ...(ignoreCase ? ['-i'] : []), '-e', pattern, root];
  const t = performance.now();
  const r = spawnSync('rg', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t;
  if (r.error !== undefined) throw new Error(`cannot run rg: ${r.error.message} (install it: apt-get install -y ripgrep)`);
  return { ms, files: r.stdout.split('\n').filter((l) => l !== '').length };
}

const QUERIES: { name: string; pattern: string; ignoreCase: boolean }[] = [
  { name: 'regex with a literal', pattern: 'function\\s+handleUser\\w+', ignoreCase: false },
  { name: 'regex without a literal', pattern: '\\d{3}-\\d{4}', ignoreCase: false },
  { name: 'case-insensitive', pattern: 'HANDLEUSERREQUEST\\d+', ignoreCase: true },
  { name: 'common word (many matches)', pattern: 'config', ignoreCase: false },
];

const root = realpathSync(mkdtempSync(join(tmpdir(), 'moat-bench-')));
try {
  const t = performance.now();
  buildTree(root);
  console.log(`tree: ${FILES} files in ${root} (built in ${Math.round(performance.now() - t)} ms)`);
  const ctx = context(root);
  ripgrep(root, 'warm-up', false); // fill the page cache before timing anything
  await ours(ctx, 'warm-up', false);
  console.log(`${'query'.padEnd(30)} ${'moat grep'.padStart(11)} ${'rg'.padStart(9)}  files (moat / rg)`);
  for (const q of QUERIES) {
    const a: number[] = [];
    const b: number[] = [];
    let filesA = 0;
    let filesB = 0;
    for (let i = 0; i < RUNS; i++) {
      const x = await ours(ctx, q.pattern, q.ignoreCase);
      const y = ripgrep(root, q.pattern, q.ignoreCase);
      a.push(x.ms);
      b.push(y.ms);
      filesA = x.files;
      filesB = y.files;
    }
    const same = filesA === filesB ? '' : '  MISMATCH';
    console.log(`${q.name.padEnd(30)} ${`${median(a).toFixed(0)} ms`.padStart(11)} ${`${median(b).toFixed(0)} ms`.padStart(9)}  ${filesA} / ${filesB}${same}`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
