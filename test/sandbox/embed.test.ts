import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jcoEmbedPlugin } from '../../scripts/jco-embed-plugin.ts';
import { buildFixtures } from './fixtures/build-fixtures.ts';
import { removeDir, tempDir } from './support.ts';

/**
 * The sandbox inside `bun build --compile`: jco's transpiler (patched by the
 * embed plugin) transpiles a component at run time, the child runner
 * re-executes the binary with `__sandbox-child`, and the SIGKILL backstop
 * works. The binary runs from a folder with no node_modules in reach.
 */

let dir: string;
let bin: string;

beforeAll(async () => {
  dir = tempDir('embed');
  bin = join(dir, 'embed-bin');
  const result = await Bun.build({
    entrypoints: [join(import.meta.dir, 'fixtures', 'embed-entry.ts')],
    compile: { outfile: bin },
    target: 'bun',
    format: 'esm',
    plugins: [jcoEmbedPlugin()],
  });
  if (!result.success) throw new Error(result.logs.map(String).join('\n'));
  mkdirSync(join(dir, 'work'));
  writeFileSync(join(dir, 'work', 'hello.txt'), 'hi\n');
  writeFileSync(join(dir, 'secret.txt'), 'secret\n');
  writeFileSync(join(dir, 'tool.wasm'), (await buildFixtures()).tool);
}, 120_000);

afterAll(() => removeDir(dir));

async function runBin(): Promise<unknown> {
  const proc = Bun.spawn([bin, join(dir, 'cache'), join(dir, 'tool.wasm'), join(dir, 'work')], { cwd: dir, stdout: 'pipe', stderr: 'pipe', env: { PATH: '/usr/bin:/bin' } });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`embed binary exited ${code}: ${err}`);
  return JSON.parse(out);
}

test('the compiled binary transpiles, runs, isolates and kills', async () => {
  const expected = {
    b64: 'aGkK\n',
    escape: 'open ../secret.txt: Operation not permitted (errno 63)\n',
    child: 'child\n',
    killed: 'timed out after 300 ms',
  };
  expect(await runBin()).toEqual({ fromCache: false, ...expected });
  // A second process finds the entry the first one wrote.
  expect(await runBin()).toEqual({ fromCache: true, ...expected });
}, 60_000);
