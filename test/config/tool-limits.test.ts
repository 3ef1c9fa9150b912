import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { DEFAULT_SANDBOX_CEILING, loadConfig } from '../../src/config/index.ts';
import { MoatError } from '../../src/util/index.ts';
import { useTmp, write } from './tmp.ts';

/** `[tools.<name>]` limit overrides under the `[sandbox]` ceiling (issue 4). */

const tmp = useTmp();

function world() {
  const root = tmp();
  const home = join(root, 'home');
  const repo = join(root, 'repo');
  write(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  return { home, repo, env: { HOME: home }, userFile: join(home, '.config', 'moat', 'config.toml'), projectFile: join(repo, '.moat', 'config.toml') };
}

function failure(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof MoatError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected a MoatError');
}

describe('[tools.<name>] and [sandbox]', () => {
  test('overrides merge per key across files; the ceiling only goes down', () => {
    const w = world();
    write(w.userFile, '[sandbox]\nmax_fuel = 50_000_000_000\n\n[tools.calculate]\nfuel = 2_000_000_000\nmemory_mb = 32\n');
    write(w.projectFile, '[sandbox]\nmax_fuel = 90_000_000_000\nmax_timeout_ms = 20000\n\n[tools.calculate]\ntimeout_ms = 15000\n\n[tools.hash]\noutput_kb = 64\n');
    const loaded = loadConfig({ cwd: w.repo, env: w.env });
    expect(loaded.toolLimits).toEqual({
      tools: {
        calculate: { fuel: 2_000_000_000, memoryBytes: 32 * 1024 * 1024, timeoutMs: 15000 },
        hash: { maxOutputBytes: 64 * 1024 },
      },
      runs: {},
      sandbox: { ...DEFAULT_SANDBOX_CEILING, maxFuel: 50_000_000_000, maxTimeoutMs: 20000 },
    });
  });

  test('timeout and retry for any tool by name: durations, defaults, and a bad duration at its file, line and key', () => {
    const w = world();
    write(w.userFile, '[tools.WebFetch]\ntimeout = "20s"\nretry = { attempts = 3 }\n\n[tools.Read]\nretry = { attempts = 2, backoff = "fixed", initial = "1.5s" }\n');
    write(w.projectFile, '[tools.WebFetch]\ntimeout = "1m30s"\n');
    expect(loadConfig({ cwd: w.repo, env: w.env }).toolLimits.runs).toEqual({
      WebFetch: { timeoutMs: 90_000, retry: { attempts: 3, backoff: 'exponential', initialMs: 500 } },
      Read: { retry: { attempts: 2, backoff: 'fixed', initialMs: 1500 } },
    });
    write(w.projectFile, '[tools.WebFetch]\n\ntimeout = "soon"\n');
    expect(failure(() => loadConfig({ cwd: w.repo, env: w.env })).message).toContain(':3: tools.WebFetch.timeout: "soon" is not a duration (write 30s, 2m or 500ms)');
    write(w.projectFile, '[tools.Read]\nretry = { attempts = 11 }\n');
    expect(failure(() => loadConfig({ cwd: w.repo, env: w.env })).message).toContain('tools.Read.retry.attempts');
  });

  test('an override above the ceiling is an error at its file, line and key', () => {
    const w = world();
    write(w.userFile, '[sandbox]\nmax_memory_mb = 64\n');
    write(w.projectFile, '# tools\n[tools.json_query]\nfuel = 1\nmemory_mb = 128\n');
    expect(failure(() => loadConfig({ cwd: w.repo, env: w.env }))).toEqual({
      code: 'config',
      message: '.moat/config.toml:4: tools.json_query.memory_mb: must be at most 64 (the ceiling: [sandbox] max_memory_mb)',
    });
  });

  test('unknown keys and bad values name the file, the line and the key', () => {
    const w = world();
    write(w.projectFile, '[tools.calc]\nfuell = 10\n');
    expect(failure(() => loadConfig({ cwd: w.repo, env: w.env }))).toEqual({
      code: 'config',
      message: '.moat/config.toml:2: tools.calc.fuell: unknown key (did you mean fuel?)',
    });
    write(w.projectFile, '[sandbox]\nmax_fuel = -5\n');
    expect(failure(() => loadConfig({ cwd: w.repo, env: w.env })).message).toBe('.moat/config.toml:2: sandbox.max_fuel: must be greater than 0 (got -5)');
    write(w.projectFile, '[sandbox]\nmax_fule = 5\n');
    expect(failure(() => loadConfig({ cwd: w.repo, env: w.env })).message).toBe('.moat/config.toml:2: sandbox.max_fule: unknown key (did you mean max_fuel?)');
  });
});
