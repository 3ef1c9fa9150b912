import { rmSync } from 'node:fs';
import { DEFAULT_LIMITS, loadComponent, runComponent, type Limits, type LoadedComponent, type Preopen, type RunRequest, type RunResult } from '../../src/sandbox/index.ts';
import { buildFixtures, type Fixtures } from './fixtures/build-fixtures.ts';
import { tempDir as makeTempDir } from '../support/temp.ts';

/** Shared setup for the sandbox tests: the fixture components, a cache dir, and a terse runner. */

export interface Decoded extends RunResult {
  out: string;
  err: string;
}

export function tempDir(prefix: string): string {
  return makeTempDir(`moat-${prefix}-`);
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface ToolRunner {
  fixtures: Fixtures;
  tool: LoadedComponent;
  cacheDir: string;
  run(args: string[], opts?: Partial<Omit<RunRequest, 'limits'>> & { limits?: Partial<Limits> }): Promise<Decoded>;
}

const dec = new TextDecoder();

export function decode(r: RunResult): Decoded {
  return { ...r, out: dec.decode(r.stdout), err: dec.decode(r.stderr) };
}

/** Loads the hostile tool; `preopens` are the default grant of every run. */
export async function toolRunner(cacheDir: string, preopens: Preopen[] = []): Promise<ToolRunner> {
  const fixtures = await buildFixtures();
  const tool = await loadComponent(fixtures.tool, { cacheDir, name: 'tool' });
  return {
    fixtures,
    tool,
    cacheDir,
    run: async (args, opts = {}) =>
      decode(
        await runComponent(tool, {
          env: {},
          preopens,
          isolation: 'in-process',
          ...opts,
          args: ['tool', ...args],
          limits: { ...DEFAULT_LIMITS, ...opts.limits },
        }),
      ),
  };
}
