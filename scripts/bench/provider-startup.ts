/**
 * `moat -p` start-up with the Anthropic default: the other vendors' SDKs are
 * in the binary and must cost nothing unless a model of theirs is chosen.
 * The floor is the same tree built without them (`scripts/build.ts
 * --without-other-sdks`, built by this script), or BASELINE_BIN (say, a
 * binary from before other providers existed). Runs alternate between the two
 * binaries against the same instant fake server; the ratio of medians is the
 * result (target <= 1.05). A third series runs a Chat Completions model
 * (ollama/…) to show what loading an adapter costs when it is used.
 *
 * Run: bun run build && bun run scripts/bench/provider-startup.ts
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { reply, startFakeAnthropic } from '../../test/support/fake-anthropic.ts';

const BIN = resolve(import.meta.dir, '../../dist/moat');
const root = mkdtempSync(join(tmpdir(), 'moat-bench-'));
let BASELINE = process.env.BASELINE_BIN;
if (BASELINE === undefined) {
  BASELINE = join(root, 'moat-without-other-sdks');
  const build = Bun.spawnSync(['bun', 'run', 'scripts/build.ts', BASELINE, '--without-other-sdks'], { cwd: resolve(import.meta.dir, '../..'), stdout: 'ignore', stderr: 'inherit' });
  if (build.exitCode !== 0) throw new Error('the floor build failed');
}
const RUNS = Number(process.env.RUNS ?? 15);

const server = await startFakeAnthropic({ repeat: true });
server.script(reply().text('ok'));
try {
  const cwd = join(root, 'work');
  // The baseline knows no [providers]: only the Chat Completions series reads this config.
  mkdirSync(join(root, 'config-chat', 'moat'), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  writeFileSync(join(root, 'config-chat', 'moat', 'config.toml'), `[providers.ollama]\nbase_url = "${server.url}/v1"\n`);
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: root,
    XDG_DATA_HOME: join(root, 'data'),
    XDG_CONFIG_HOME: join(root, 'config'),
    ANTHROPIC_API_KEY: 'bench',
    ANTHROPIC_BASE_URL: server.url,
  };
  const once = async (bin: string, extra: string[] = []): Promise<number> => {
    const t0 = performance.now();
    const runEnv = extra.length > 0 ? { ...env, XDG_CONFIG_HOME: join(root, 'config-chat') } : env;
    const proc = Bun.spawn([bin, '-p', 'hi', ...extra], { cwd, env: runEnv, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0 || out !== 'ok\n') throw new Error(`${bin} exited ${code}: ${err}${out}`);
    return performance.now() - t0;
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const ours: number[] = [];
  const base: number[] = [];
  const chat: number[] = [];
  // Warm the page cache for every binary first.
  await once(BIN);
  if (BASELINE) await once(BASELINE);
  for (let i = 0; i < RUNS; i++) {
    ours.push(await once(BIN));
    if (BASELINE) base.push(await once(BASELINE));
    chat.push(await once(BIN, ['--model', 'ollama/bench']));
  }
  console.log(`moat -p, Anthropic default:      median ${median(ours).toFixed(1)} ms (n=${RUNS})`);
  if (BASELINE) {
    console.log(`floor -p (no other SDKs):     median ${median(base).toFixed(1)} ms (n=${RUNS})`);
    console.log(`ratio to the floor:              ${(median(ours) / median(base)).toFixed(3)} (target <= 1.05)`);
  }
  console.log(`moat -p, ollama/… (Chat adapter): median ${median(chat).toFixed(1)} ms, ${(median(chat) / median(ours)).toFixed(3)}x the default`);
} finally {
  await server.close();
  rmSync(root, { recursive: true, force: true });
}
